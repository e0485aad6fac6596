import { Prisma } from "@/generated/prisma/client";
import { hotSql } from "@/server/ground/platform/hot-transaction";
import { randomUUID } from "node:crypto";
import type { Db } from "@/server/ground/db";
import type { SkipReason } from "../lifecycle-states";
import { applyAction } from "./apply";
import { findPieceDrafts, insertPiecesFromDrafts } from "./batch-pieces";
import { setEnrollmentStatus } from "./enrollment-status";
import type { AdmissionFacts } from "./facts";
import { chargeReservations, reserveBudgets } from "./gates/budget";
import { type EventContext, loadEventContexts } from "./snapshot";
import { type Action, decide, type EventStatus } from "./transitions";

export interface BatchDecision {
  ctx: EventContext;
  action: Action;
  facts: AdmissionFacts | null;
}

export interface BatchOutcome {
  continue: string[];
  toRender: EventContext[];
  toSubmit: EventContext[];
  /** Left as they were, for the single-event runner. */
  single: string[];
}

interface EventUpdate {
  id: string;
  status: EventStatus;
  skipReason?: SkipReason | null;
  /** The mailability audit's reasons for a suppression or address skip. */
  mailabilityReasons?: string[];
  completedAt?: Date | null;
  runAfter?: Date | null;
  /** Gives the lease back: the event waits or has ended. */
  release: boolean;
}

/** Skips by the suppression and address gates keep the mailability audit's reasons (as apply.ts's skip does). */
const AUDITED_SKIPS = new Set<SkipReason>(["suppressed", "address_invalid", "address_duplicate"]);

const newId = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, "")}`;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/**
 * Applies one round of decisions for a batch inside its transaction. The common actions are
 * written set-based, whatever the batch's size: admissions (skips, holdouts, enrollments), waits
 * for a date, pieces from approved drafts, budget holds per campaign, completions. The rare ones
 * (undoing what an event had under way, a review card, a gift claim) go through applyAction one
 * event at a time, in the same transaction, exactly as the single-event runner applies them.
 */
export async function applyBatch(db: Db, decisions: BatchDecision[], now: Date): Promise<BatchOutcome> {
  const out: BatchOutcome = { continue: [], toRender: [], toSubmit: [], single: [] };
  // Each event's last update of the round wins (an event enrolled and given its piece and hold in
  // one round is written once, as held).
  const events = new Map<string, EventUpdate>();
  const setEvent = (update: EventUpdate) => events.set(update.id, update);
  const enrollments: EnrollmentRow[] = [];
  const prepare: EventContext[] = [];
  const reserve: EventContext[] = [];
  const complete: EventContext[] = [];
  const oneByOne: BatchDecision[] = [];
  /** Enrollment id -> its piece's price, where this round made the piece. */
  const costs = new Map<string, number>();

  for (const d of decisions) {
    const { ctx, action } = d;
    const bare = !ctx.enrollmentId && !ctx.pieceId;
    switch (action.kind) {
      case "none":
        break;
      case "submit_to_vendor":
        out.toSubmit.push(ctx);
        break;
      case "skip":
        if (bare)
          setEvent({
            id: ctx.event.id,
            status: "skipped",
            skipReason: action.reason,
            mailabilityReasons: AUDITED_SKIPS.has(action.reason) ? (d.facts?.mailabilityReasons ?? []) : [],
            completedAt: now,
            release: true,
          });
        else oneByOne.push(d);
        break;
      case "hold_out":
        if (!ctx.enrollmentId)
          enrollments.push(
            enrollmentRow(ctx, "holdout", "held_out", null, d.facts?.recipientKey ?? null, d.facts?.heldOutBy ?? null),
          );
        setEvent({ id: ctx.event.id, status: "held_out", completedAt: now, release: true });
        break;
      case "enroll": {
        const row = enrollmentRow(ctx, "treatment", "scheduled", action.scheduledFor, d.facts?.recipientKey ?? null);
        enrollments.push(row);
        setEvent({ id: ctx.event.id, status: "processing", release: false });
        // What the enrolled event does next, asked of decide as the next round would (its rows stay
        // locked until the commit): usually its piece, made below in this round.
        const next: EventContext = {
          ...ctx,
          enrollmentId: row.id,
          snapshot: {
            ...ctx.snapshot,
            enrollment: { arm: "treatment", scheduledFor: action.scheduledFor, cancelled: false },
          },
        };
        const then = decide(next.snapshot, null);
        if (then.kind === "prepare_piece" && !then.needsReview) prepare.push(next);
        else out.continue.push(ctx.event.id);
        break;
      }
      case "wait":
        if (action.until && (action.reason === "scheduled" || action.reason === "paused"))
          setEvent({ id: ctx.event.id, status: "waiting", runAfter: action.until, release: true });
        else oneByOne.push(d);
        break;
      case "prepare_piece":
        if (action.needsReview) oneByOne.push(d);
        else prepare.push(ctx);
        break;
      case "reserve_budget":
        reserve.push(ctx);
        break;
      case "complete":
        complete.push(ctx);
        break;
      default:
        oneByOne.push(d);
    }
  }

  // The drafts first: an enrollment whose piece is made in this round is written in fulfilment at once.
  const drafts = prepare.length ? await findPieceDrafts(db, prepare) : null;
  const written = new Set<string>();
  if (drafts) {
    const ready = new Set(drafts.ready.map((c) => c.enrollmentId!));
    for (const row of enrollments) {
      if (!ready.has(row.id)) continue;
      row.status = "in_fulfilment";
      written.add(row.id);
    }
  }
  if (enrollments.length) await insertEnrollments(db, enrollments);

  if (drafts) {
    const pieces = await insertPiecesFromDrafts(db, drafts.ready, drafts.contacts, now, written);
    for (const [enrollmentId, cents] of pieces.costs) costs.set(enrollmentId, cents);
    for (const ctx of drafts.ready) {
      const pieceId = pieces.prepared.get(ctx.event.id);
      if (!pieceId) continue;
      // What the event does next with its approved piece, asked of decide as the next round would
      // (its rows stay locked): usually the budget hold, made below in this round.
      const next: EventContext = { ...ctx, pieceId, snapshot: { ...ctx.snapshot, piece: { status: "approved" } } };
      if (decide(next.snapshot, null).kind === "reserve_budget") reserve.push(next);
      else {
        setEvent({ id: ctx.event.id, status: "processing", release: false });
        out.continue.push(ctx.event.id);
      }
    }
    // Rendered outside the transaction: recipients without a draft, and those whose draft no longer prints them as they are.
    out.toRender.push(...drafts.missing, ...drafts.stale);
    // A recipient entering the campaign again gets a piece with fresh response codes, rendered here.
    for (const ctx of drafts.repeat)
      oneByOne.push({ ctx, action: { kind: "prepare_piece", needsReview: false }, facts: null });
  }

  if (complete.length) {
    await setEnrollmentStatus(
      db,
      complete.map((c) => c.enrollmentId!),
      "mailed",
    );
    for (const ctx of complete) setEvent({ id: ctx.event.id, status: "completed", completedAt: now, release: true });
  }

  // The statements on the campaign's row come last, so its lock is held from them to the commit
  // only, not while the rest of the batch is written (another worker's hold or charge waits for it).
  if (reserve.length) {
    const held = await holdBudgets(db, reserve, costs);
    for (const ctx of reserve) {
      if (!held.has(ctx.enrollmentId!)) {
        oneByOne.push({ ctx, action: { kind: "skip", reason: "budget_exhausted" }, facts: null });
        continue;
      }
      // What the event does next with its hold, asked of decide as the next round would (its rows stay
      // locked until the commit): usually the vendor, so the step ends here instead of reading the batch again.
      if (
        decide({ ...ctx.snapshot, eventStatus: "enrolled", reservation: { status: "held" } }, null).kind ===
        "submit_to_vendor"
      ) {
        out.toSubmit.push(ctx);
        // An event its claim made processing stays so while the vendor has its piece: the vendor's
        // answer writes its next status (completed, or enrolled while a printed piece waits for the
        // post), so the row is not written in between as well.
        if (ctx.event.status === "processing") events.delete(ctx.event.id);
        else setEvent({ id: ctx.event.id, status: "enrolled", release: false });
      } else {
        setEvent({ id: ctx.event.id, status: "enrolled", release: false });
        out.continue.push(ctx.event.id);
      }
    }
    // Pieces from drafts are in fulfilment already; one approved by a person may not be.
    const granted = reserve
      .filter((c) => held.has(c.enrollmentId!) && !costs.has(c.enrollmentId!))
      .map((c) => c.enrollmentId!);
    await setEnrollmentStatus(db, granted, "in_fulfilment");
  }

  await updateEvents(db, [...events.values()]);
  // A piece the vendor (or its tracking) marked mailed is charged now (a hold already charged is left as it is).
  if (complete.length) await chargeReservations(db, { enrollmentIds: complete.map((c) => c.enrollmentId!), now });

  for (const d of oneByOne) {
    if ((await applyAction(db, d.ctx, d.action, d.facts, now)) === "continue") out.continue.push(d.ctx.event.id);
  }
  return out;
}

type EnrollmentRow = ReturnType<typeof enrollmentRow>;

function enrollmentRow(
  ctx: EventContext,
  arm: "treatment" | "holdout",
  status: "scheduled" | "held_out" | "in_fulfilment",
  scheduledFor: Date | null,
  recipientKey: string | null,
  heldOutBy: string | null = null,
) {
  return {
    id: newId("enr"),
    workspaceId: ctx.event.workspaceId,
    campaignId: ctx.campaign.id,
    contactId: ctx.event.contactId,
    accountId: ctx.event.contactAccountId,
    entryEventId: ctx.event.id,
    arm,
    status,
    scheduledFor: iso(scheduledFor),
    recipientKey,
    heldOutBy,
  };
}

async function insertEnrollments(db: Db, rows: EnrollmentRow[]) {
  await hotSql(
    db,
    Prisma.sql`
    INSERT INTO "Enrollment" (id, "workspaceId", "campaignId", "contactId", "accountId", "entryEventId", arm, status, "scheduledFor", "recipientKey", "heldOutBy", "createdAt", "updatedAt")
    SELECT x.id, x."workspaceId", x."campaignId", x."contactId", x."accountId", x."entryEventId", x.arm::"HoldoutArm", x.status::"EnrollmentStatus",
           x."scheduledFor"::timestamptz AT TIME ZONE 'UTC', x."recipientKey", x."heldOutBy", timezone('UTC', now()), timezone('UTC', now())
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS x(id text, "workspaceId" text, "campaignId" text, "contactId" text, "accountId" text, "entryEventId" text, arm text, status text, "scheduledFor" text, "recipientKey" text, "heldOutBy" text)`,
  );
}

/** Each event's new status in one statement (what setEvent in apply.ts writes for one). */
async function updateEvents(db: Db, rows: EventUpdate[]) {
  if (rows.length === 0) return;
  const data = rows.map((r) => ({
    id: r.id,
    status: r.status,
    skipReason: r.skipReason ?? null,
    reasons: r.mailabilityReasons ?? [],
    completedAt: iso(r.completedAt),
    runAfter: iso(r.runAfter),
    release: r.release,
  }));
  await hotSql(
    db,
    Prisma.sql`
    UPDATE "EntryEvent" e
       SET status = x.status::"EntryEventStatus",
           "skipReason" = x."skipReason",
           "mailabilityReasons" = x.reasons,
           "completedAt" = COALESCE(x."completedAt"::timestamptz AT TIME ZONE 'UTC', e."completedAt"),
           "runAfter" = COALESCE(x."runAfter"::timestamptz AT TIME ZONE 'UTC', e."runAfter"),
           "lockToken" = CASE WHEN x.release THEN NULL ELSE e."lockToken" END,
           "lockedUntil" = CASE WHEN x.release THEN NULL ELSE e."lockedUntil" END,
           attempts = 0, "lastError" = NULL, "updatedAt" = timezone('UTC', now())
      FROM jsonb_to_recordset(${JSON.stringify(data)}::jsonb)
        AS x(id text, status text, "skipReason" text, reasons text[], "completedAt" text, "runAfter" text, release boolean)
     WHERE e.id = x.id`,
  );
}

/** The budget holds of a round: per campaign and price, as many as the headroom allows, in the batch's order. */
async function holdBudgets(db: Db, ctxs: EventContext[], known: Map<string, number>): Promise<Set<string>> {
  // The prices of pieces made in an earlier round or approved by a person; this round's are known.
  const unknown = ctxs.filter((c) => !known.has(c.enrollmentId!)).map((c) => c.pieceId!);
  const costs = new Map(known);
  if (unknown.length) {
    const rows = await hotSql<{ enrollmentId: string; costCents: number }>(
      db,
      Prisma.sql`SELECT "enrollmentId", "costCents" FROM "MailPiece" WHERE id = ANY(${unknown}::text[])`,
    );
    for (const r of rows) costs.set(r.enrollmentId, r.costCents);
  }
  const groups = new Map<
    string,
    { workspaceId: string; campaignId: string; amountCents: number; enrollmentIds: string[] }
  >();
  for (const ctx of ctxs) {
    const amountCents = costs.get(ctx.enrollmentId!) ?? 0;
    const key = `${ctx.campaign.id}:${amountCents}`;
    if (!groups.has(key))
      groups.set(key, {
        workspaceId: ctx.event.workspaceId,
        campaignId: ctx.campaign.id,
        amountCents,
        enrollmentIds: [],
      });
    groups.get(key)!.enrollmentIds.push(ctx.enrollmentId!);
  }
  const held = new Set<string>();
  // Campaigns in id order: two workers holding budget for the same campaigns lock their rows in the same order.
  for (const g of [...groups.values()].sort((a, b) =>
    a.campaignId < b.campaignId ? -1 : a.campaignId > b.campaignId ? 1 : 0,
  )) {
    for (const id of await reserveBudgets(db, g)) held.add(id);
  }
  return held;
}

/**
 * Records what the vendor did with a batch's pieces, in one transaction, for the events this
 * worker still holds: mailed pieces are charged and their events completed; printed ones wait an
 * hour for the post. An event another worker took over is left to it (its jobs are the same).
 */
export async function finishSubmitted(
  db: Db,
  eventIds: string[],
  token: string,
  jobs: Map<string, { vendorRef: string; printedAt: Date; mailedAt: Date | null }>,
  now: Date,
) {
  const contexts = [...(await loadEventContexts(db, eventIds, token, now)).values()].filter(
    (c) => c.pieceId && jobs.has(c.pieceId),
  );
  if (contexts.length === 0) return;
  const rows = contexts.map((c) => {
    const job = jobs.get(c.pieceId!)!;
    return {
      id: c.pieceId!,
      vendorRef: job.vendorRef,
      printedAt: iso(job.printedAt),
      mailedAt: iso(job.mailedAt),
      status: job.mailedAt ? "mailed" : "printed",
    };
  });
  await hotSql(
    db,
    Prisma.sql`
    UPDATE "MailPiece" p
       SET "vendorRef" = x."vendorRef", "printedAt" = x."printedAt"::timestamptz AT TIME ZONE 'UTC', "mailedAt" = x."mailedAt"::timestamptz AT TIME ZONE 'UTC',
           status = x.status::"MailPieceStatus", "updatedAt" = timezone('UTC', now())
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(id text, "vendorRef" text, "printedAt" text, "mailedAt" text, status text)
     WHERE p.id = x.id`,
  );
  const mailed = contexts.filter((c) => jobs.get(c.pieceId!)!.mailedAt);
  // Printed, not yet mailed: the event is enrolled and looks again in an hour (the post, or tracking, moves it on).
  const printed = contexts
    .filter((c) => !jobs.get(c.pieceId!)!.mailedAt)
    .map((c) => ({
      id: c.event.id,
      status: "enrolled" as const,
      runAfter: new Date(now.getTime() + 3_600_000),
      release: true,
    }));
  if (printed.length) await updateEvents(db, printed);
  // Mailed: each event is now complete (decide says so once its piece is mailed); applyBatch charges
  // their holds last, after the events are written.
  const decisions: BatchDecision[] = mailed.map((c) => ({
    ctx: c,
    action: decide({ ...c.snapshot, piece: { status: "mailed" } }, null),
    facts: null,
  }));
  await applyBatch(db, decisions, now);
  // Every mailed piece is charged, whatever its event does next (applyBatch charged those it completed).
  await chargeReservations(db, {
    enrollmentIds: decisions.filter((d) => d.action.kind !== "complete").map((d) => d.ctx.enrollmentId!),
    now,
  });
}
