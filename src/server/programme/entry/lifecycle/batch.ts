import type { PrismaClient } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { hotTransaction } from "@/server/ground/platform/hot-transaction";
import { applyBatch, type BatchDecision, finishSubmitted } from "./batch-apply";
import { renderMissingDrafts } from "./batch-pieces";
import { admissionFacts, batchAdmissible } from "./facts";
import { groupBy } from "./group-by";
import { type Claim, defaultDeps, processEvent, type RunnerDeps } from "./runner";
import { type EventContext, loadEventContexts } from "./snapshot";
import { decide } from "./transitions";

/** Rounds of actions in one batch transaction: admission, enrollment, piece, budget (then the vendor, outside). */
const ROUNDS_PER_STEP = 6;
/** Steps (transactions) a batch takes at most before what is left goes one event at a time. */
const MAX_STEPS = 8;
/** Events that go one at a time after the batch (review gates, frequency caps, retries) run this many at once. */
const SINGLE_CONCURRENCY = 4;

/**
 * The lifecycle for a batch of claimed events (one lease token), as the worker runs it: the same
 * pure `decide` per event, but each step is one transaction for the whole batch, with the gates
 * evaluated set-based (facts.ts) and the common actions applied as a handful of statements
 * (batch-apply.ts). The campaign row is locked once per batch for its budget, rendering happens
 * outside any transaction (a recipient without an approved draft), and the vendor gets the batch's
 * pieces in one call. Events the batch does not handle (first attempts only; review gates,
 * frequency caps and gift claims need one event at a time) and any batch that fails go through
 * the single-event runner, which keeps its retries and poison handling. Exactly-once holds as
 * there: every write checks the lease, the vendor's job is keyed by the piece, and charges,
 * reservations and enrollments are unique per event.
 */
export async function processBatch(
  prisma: PrismaClient,
  claims: Claim[],
  deps: RunnerDeps = defaultDeps,
): Promise<void> {
  if (claims.length === 0) return;
  const byId = new Map(claims.map((c) => [c.id, c]));
  const single = new Set<string>(claims.filter((c) => c.attempts > 1).map((c) => c.id));
  let active = claims.filter((c) => !single.has(c.id)).map((c) => c.id);
  const token = claims[0].token;
  try {
    for (let step = 0; step < MAX_STEPS && active.length > 0; step++) {
      await deps.beforeStep?.(active[0]);
      const now = deps.clock();
      const result = await hotTransaction(prisma, (tx) => batchStep(tx, active, token, now), {
        timeout: 60_000,
        maxWait: 30_000,
      });
      for (const id of result.single) single.add(id);
      const next = [...result.next];
      // Outside any transaction: render the drafts the batch lacks, then those events go on.
      if (result.toRender.length) {
        const rendered = await renderMissingDrafts(prisma, result.toRender, now, deps);
        next.push(...rendered.done);
        for (const id of rendered.failed) single.add(id);
      }
      if (result.toSubmit.length)
        for (const id of await submitBatch(prisma, result.toSubmit, token, deps)) single.add(id);
      active = next;
    }
    for (const id of active) single.add(id);
  } catch (error) {
    // Nothing of the failed step was written: its events go one at a time, with their own retries.
    deps.log(`a batch of ${active.length} events failed; they go one at a time`, error);
    for (const id of active) single.add(id);
  }
  const rest = [...single].map((id) => byId.get(id)!).filter(Boolean);
  for (let i = 0; i < rest.length; i += SINGLE_CONCURRENCY) {
    await Promise.all(rest.slice(i, i + SINGLE_CONCURRENCY).map((claim) => processEvent(prisma, claim, deps)));
  }
}

interface StepResult {
  /** Events to take on in the next step. */
  next: string[];
  /** Events whose recipient needs a draft rendered before their piece. */
  toRender: EventContext[];
  /** Events whose piece goes to the vendor now. */
  toSubmit: EventContext[];
  /** Events left untouched in this step, for the single-event runner. */
  single: string[];
}

/** One transaction: rounds of decide-and-apply for the whole batch until each event waits, ends, or leaves it. */
async function batchStep(tx: Db, ids: string[], token: string, now: Date): Promise<StepResult> {
  const result: StepResult = { next: [], toRender: [], toSubmit: [], single: [] };
  let active = ids;
  for (let round = 0; round < ROUNDS_PER_STEP && active.length > 0; round++) {
    const contexts = await loadEventContexts(tx, active, token, now);
    const decisions: BatchDecision[] = [];
    const admit: EventContext[] = [];
    for (const ctx of contexts.values()) {
      const action = decide(ctx.snapshot, null);
      if (action.kind !== "needs_facts") decisions.push({ ctx, action, facts: null });
      else if (batchAdmissible(ctx)) admit.push(ctx);
      else result.single.push(ctx.event.id);
    }
    for (const group of groupBy(admit, (c) => c.event.workspaceId)) {
      const facts = await admissionFacts(tx, group);
      for (const ctx of group)
        decisions.push({
          ctx,
          action: decide(ctx.snapshot, facts.get(ctx.event.id)!),
          facts: facts.get(ctx.event.id)!,
        });
    }
    const outcome = await applyBatch(tx, decisions, now);
    result.toRender.push(...outcome.toRender);
    result.toSubmit.push(...outcome.toSubmit);
    result.single.push(...outcome.single);
    active = outcome.continue;
  }
  result.next = active;
  return result;
}

/**
 * The vendor's part for a batch: one call for the pieces of each vendor that takes stored pieces
 * in bulk (outside any transaction: the vendor is another system, and the piece id is its
 * idempotency key, so a retry after a crash gets the same jobs), then one transaction that records
 * them, charges the reservations and completes the events. Pieces of a vendor without a bulk call
 * (Lob) go one at a time through the single-event runner, which never prints twice
 * (vendor-step.ts): their ids are returned.
 */
async function submitBatch(
  prisma: PrismaClient,
  ctxs: EventContext[],
  token: string,
  deps: RunnerDeps,
): Promise<string[]> {
  const results = new Map<string, { vendorRef: string; printedAt: Date; mailedAt: Date | null }>();
  const oneByOne: string[] = [];
  const submitted: EventContext[] = [];
  for (const group of groupBy(ctxs, (c) => c.campaign.contract?.vendor ?? "sandbox")) {
    const adapter = deps.adapterFor(group[0].campaign.contract?.vendor ?? "sandbox", prisma);
    if (!adapter.submitStored) {
      oneByOne.push(...group.map((c) => c.event.id));
      continue;
    }
    for (const [pieceId, job] of await adapter.submitStored(group.map((c) => c.pieceId!))) results.set(pieceId, job);
    submitted.push(...group);
  }
  const now = deps.clock();
  if (submitted.length)
    await hotTransaction(
      prisma,
      (tx) =>
        finishSubmitted(
          tx,
          submitted.map((c) => c.event.id),
          token,
          results,
          now,
        ),
      { timeout: 60_000, maxWait: 30_000 },
    );
  return oneByOne;
}
