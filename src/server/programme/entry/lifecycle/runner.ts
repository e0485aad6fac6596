import type { PrismaClient } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { type FulfilmentAdapter, VendorError } from "@/server/programme/fulfilment/adapter";
import { adapterFor } from "@/server/programme/fulfilment/registry";
import { applyAction, failEvent } from "./apply";
import { evaluateGates } from "./facts";
import { chargeReservation } from "./gates/budget";
import { recordTracking } from "@/server/programme/fulfilment/tracking";
import { type EventContext, loadEventContext } from "./snapshot";
import { refusePiece, sendToVendor } from "./vendor-step";
import { decide } from "./transitions";
import { type Claim, lifecycleLog } from "./claims";

export { type Claim, claimDueEvents, LEASE_MS } from "./claims";

/** Claims without progress before an event ends `failed` (a poison event, or one that crashes its worker). */
export const MAX_ATTEMPTS = 6;
const MAX_STEPS = 16;

export interface RunnerDeps {
  clock: () => Date;
  adapterFor: (
    vendor: string,
    db: Db,
  ) => Pick<FulfilmentAdapter, "vendor" | "submit" | "submitStored" | "reconcile" | "cancel" | "statusPollMs">;
  log: (line: string, error?: unknown) => void;
  /** For tests: called before each step (e.g. to spread SIGKILLs over the steps). */
  beforeStep?: (eventId: string) => Promise<void>;
}

export const defaultDeps: RunnerDeps = {
  clock: () => new Date(),
  adapterFor,
  log: lifecycleLog,
};

/** Backoff before retrying a failed attempt: 2, 4, 8 ... seconds, at most 5 minutes. */
export const backoffMs = (attempt: number) => Math.min(300_000, 1000 * 2 ** attempt);

type StepResult = { kind: "lost" } | { kind: "stop" } | { kind: "continue" } | { kind: "submit"; ctx: EventContext };

/** Actions applied one after another in a step (everything up to the vendor, which is outside). */
const ACTIONS_PER_STEP = 6;

/**
 * One transaction under the event's row lock: decide and apply actions until the event waits,
 * ends, or must go to its vendor. Each action sees the state the previous one left.
 */
async function step(prisma: PrismaClient, eventId: string, token: string, deps: RunnerDeps): Promise<StepResult> {
  const now = deps.clock();
  return prisma.$transaction(
    async (tx) => {
      for (let i = 0; i < ACTIONS_PER_STEP; i++) {
        const ctx = await loadEventContext(tx, eventId, token, now);
        if (!ctx) return { kind: "lost" };
        let facts = null;
        let action = decide(ctx.snapshot, null);
        if (action.kind === "needs_facts") {
          facts = await evaluateGates(tx, ctx);
          action = decide(ctx.snapshot, facts);
        }
        if (action.kind === "submit_to_vendor") return { kind: "submit", ctx };
        if ((await applyAction(tx, ctx, action, facts, now)) === "stop") return { kind: "stop" };
        await deps.beforeStep?.(eventId);
      }
      return { kind: "continue" };
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}

/** How long a piece the vendor has but the post does not yet wait before a reconciliation read (webhooks usually come first). */
export const VENDOR_RECHECK_MS = 6 * 3_600_000;

/**
 * Sends an approved, budgeted piece to its vendor outside any transaction (the vendor is another
 * system), then records the result. Never prints twice (vendor-step.ts): a piece the vendor has is
 * only read back, and the piece id is the vendor's idempotency key, so a retry after a crash
 * between the two gets the same job back.
 */
async function submit(prisma: PrismaClient, ctx: EventContext, token: string, deps: RunnerDeps): Promise<StepResult> {
  const piece = await prisma.mailPiece.findUniqueOrThrow({
    where: { id: ctx.pieceId! },
    include: { printDraft: { select: { pdf: true } } },
  });
  const adapter = deps.adapterFor(piece.vendor, prisma);
  const contract = {
    format: ctx.campaign.format,
    size: ctx.campaign.contract?.size ?? null,
    connectionId: ctx.campaign.contract?.connectionId ?? null,
  };
  const outcome = await sendToVendor(prisma, adapter, piece, contract, deps.clock());
  const now = deps.clock();
  if (outcome.kind === "refused" || outcome.job.cancelled) {
    const refusal =
      outcome.kind === "refused"
        ? outcome
        : { issue: "cancelled_at_vendor" as const, message: "The vendor cancelled this piece; it will not be mailed." };
    await prisma.$transaction((tx) =>
      refusePiece(tx, {
        eventId: ctx.event.id,
        token,
        pieceId: piece.id,
        enrollmentId: ctx.enrollmentId,
        issue: refusal.issue,
        message: refusal.message,
        now,
      }),
    );
    return { kind: "stop" };
  }
  const job = outcome.job;
  return prisma.$transaction(async (tx) => {
    const fresh = await loadEventContext(tx, ctx.event.id, token, now);
    if (!fresh) return { kind: "lost" } as const;
    await tx.mailPiece.update({
      where: { id: piece.id },
      data: {
        vendorRef: job.vendorRef,
        printedAt: piece.printedAt ?? job.printedAt,
        vendorMode: job.mode ?? null,
        ...(job.mailedAt ? { mailedAt: job.mailedAt, status: "mailed" } : { status: "printed" }),
      },
    });
    if (job.tracking?.length)
      await recordTracking(tx, { workspaceId: piece.workspaceId, pieceId: piece.id, events: job.tracking, now });
    if (!job.mailedAt) {
      // The vendor has it but the post does not yet: the event is enrolled (a batch leaves it processing
      // while the vendor has its piece), and its webhooks wake it; else a reconciliation read later
      // (for a vendor without webhooks, every statusPollMs: the lifecycle's worker polls its order).
      await tx.entryEvent.update({
        where: { id: ctx.event.id },
        data: {
          status: "enrolled",
          runAfter: new Date(now.getTime() + (adapter.statusPollMs ?? VENDOR_RECHECK_MS)),
          lockToken: null,
          lockedUntil: null,
          attempts: 0,
        },
      });
      return { kind: "stop" } as const;
    }
    await chargeReservation(tx, { enrollmentId: ctx.enrollmentId!, now });
    // Mailed: complete the event in the same transaction.
    const done = await loadEventContext(tx, ctx.event.id, token, now);
    return { kind: await applyAction(tx, done!, decide(done!.snapshot, null), null, now) } as const;
  });
}

/** Moves one claimed event forward until it waits or ends. Failures back off; a poison event ends `failed`. */
export async function processEvent(prisma: PrismaClient, claim: Claim, deps: RunnerDeps = defaultDeps) {
  try {
    if (claim.attempts > MAX_ATTEMPTS) throw new Error(`no progress after ${MAX_ATTEMPTS} attempts`);
    for (let i = 0; i < MAX_STEPS; i++) {
      await deps.beforeStep?.(claim.id);
      let result = await step(prisma, claim.id, claim.token, deps);
      if (result.kind === "submit") result = await submit(prisma, result.ctx, claim.token, deps);
      if (result.kind === "lost") return "lost";
      if (result.kind === "stop") return "done";
    }
    throw new Error(`still moving after ${MAX_STEPS} steps`);
  } catch (error) {
    await recordFailure(prisma, claim, error, deps);
    return "failed";
  }
}

async function recordFailure(prisma: PrismaClient, claim: Claim, error: unknown, deps: RunnerDeps) {
  const now = deps.clock();
  const message = error instanceof Error ? error.message : String(error);
  const final = claim.attempts >= MAX_ATTEMPTS;
  // A vendor that asked us to slow down (Lob's 429 with its rate-limit window) is not asked again sooner.
  const asked = error instanceof VendorError && error.reason === "rate_limited" ? (error.detail.retryAfterMs ?? 0) : 0;
  const waitMs = Math.max(backoffMs(claim.attempts), asked);
  if (final) {
    const failed = await prisma.$transaction((tx) =>
      failEvent(tx, { eventId: claim.id, token: claim.token, message, now }),
    );
    if (!failed) return;
  } else {
    const updated = await prisma.entryEvent.updateMany({
      where: { id: claim.id, lockToken: claim.token },
      data: {
        lastError: message.slice(0, 2000),
        runAfter: new Date(now.getTime() + waitMs),
        lockToken: null,
        lockedUntil: null,
      },
    });
    if (updated.count === 0) return;
  }
  if (final) deps.log(`event ${claim.id} failed after ${claim.attempts} attempts: ${message}`, error);
  else deps.log(`event ${claim.id} attempt ${claim.attempts} failed, retrying in ${waitMs / 1000} s: ${message}`);
}
