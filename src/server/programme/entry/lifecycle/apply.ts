import type { Db } from "@/server/ground/db";
import { notifyBudgetStopped } from "@/server/records/email/notify-events";
import { chargeReservation, releaseReservation, reserveBudget } from "./gates/budget";
import type { SkipReason } from "../lifecycle-states";
import { openGiftClaim } from "@/server/programme/entry/lifecycle/gift-claim-open";
import { preparePiece, REVIEW_WINDOW_MS } from "./piece-preparation";
import type { EventContext } from "./snapshot";
import type { Action, EventStatus } from "./transitions";

/** Where an event stands after a step: keep going, or stop (it waits or has ended). */
export type StepOutcome = "continue" | "stop";

/** A long sleep for events that only a decision will wake (the card's expiry also wakes them). */
const FAR = 24 * 60 * 60_000;

async function setEvent(
  db: Db,
  ctx: EventContext,
  data: {
    status: EventStatus;
    skipReason?: SkipReason;
    mailabilityReasons?: string[];
    completedAt?: Date;
    runAfter?: Date;
    release?: boolean;
  },
) {
  await db.entryEvent.update({
    where: { id: ctx.event.id },
    data: {
      status: data.status,
      skipReason: data.skipReason ?? null,
      mailabilityReasons: data.mailabilityReasons ?? [],
      completedAt: data.completedAt,
      attempts: 0,
      lastError: null,
      ...(data.runAfter ? { runAfter: data.runAfter } : {}),
      ...(data.release ? { lockToken: null, lockedUntil: null } : {}),
    },
  });
}

/**
 * Ends an event as skipped, undoing what it had under way: enrollment, piece, reservation, card,
 * open gift claim. A skip by the suppression or address gate keeps the mailability audit's reasons for it.
 */
async function skip(db: Db, ctx: EventContext, reason: SkipReason, now: Date, mailabilityReasons: string[] = []) {
  if (ctx.enrollmentId) {
    await db.enrollment.update({ where: { id: ctx.enrollmentId }, data: { status: "cancelled" } });
    await releaseReservation(db, { enrollmentId: ctx.enrollmentId, now });
  }
  if (ctx.pieceId) {
    await db.mailPiece.updateMany({
      where: { id: ctx.pieceId, status: { in: ["pending_review", "approved", "rendered"] } },
      data: { status: "cancelled" },
    });
    await db.confirmationCard.updateMany({
      where: { pieceId: ctx.pieceId, status: "pending" },
      data: { status: "expired", decidedAt: now },
    });
    // Its claim page closes: an unclaimed gift's claim expired; any other skip withdraws it.
    await db.giftClaim.updateMany({
      where: { pieceId: ctx.pieceId, status: "open" },
      data: { status: reason === "gift_unclaimed" ? "expired" : "cancelled", decidedAt: now },
    });
  }
  // Whoever may raise the budget hears once per budget, in this same transaction.
  if (reason === "budget_exhausted")
    await notifyBudgetStopped(db, { workspaceId: ctx.event.workspaceId, campaignId: ctx.event.campaignId });
  await setEvent(db, ctx, {
    status: "skipped",
    skipReason: reason,
    mailabilityReasons,
    completedAt: now,
    release: true,
  });
}

/**
 * Ends an event `failed` (a poison event, or one whose workers keep dying) and gives back what it
 * held: its reservation is released and an unprinted piece cancelled, so a failure never leaks
 * budget. A piece that may have reached the vendor keeps its reservation for the vendor's charge.
 */
export async function failEvent(
  db: Db,
  p: { eventId: string; token: string; message: string; now: Date },
): Promise<boolean> {
  const updated = await db.entryEvent.updateMany({
    where: { id: p.eventId, lockToken: p.token },
    data: {
      status: "failed",
      completedAt: p.now,
      lastError: p.message.slice(0, 2000),
      lockToken: null,
      lockedUntil: null,
    },
  });
  if (updated.count === 0) return false;
  const enrollment = await db.enrollment.findUnique({
    where: { entryEventId: p.eventId },
    include: { mailPiece: { select: { id: true, status: true } } },
  });
  if (!enrollment) return true;
  // An approved piece may already be at the vendor (the submission happens before its bookkeeping):
  // it keeps its reservation so a charge for it can never overspend.
  const maybeHandedOver =
    enrollment.mailPiece && ["approved", "rendered", "printed", "mailed"].includes(enrollment.mailPiece.status);
  if (maybeHandedOver) return true;
  await db.enrollment.update({ where: { id: enrollment.id }, data: { status: "cancelled" } });
  await releaseReservation(db, { enrollmentId: enrollment.id, now: p.now });
  if (enrollment.mailPiece) {
    await db.mailPiece.updateMany({
      where: { id: enrollment.mailPiece.id, status: "pending_review" },
      data: { status: "cancelled" },
    });
    await db.confirmationCard.updateMany({
      where: { pieceId: enrollment.mailPiece.id, status: "pending" },
      data: { status: "expired", decidedAt: p.now },
    });
  }
  return true;
}

/** Applies one action inside the step transaction (submission to the vendor is the runner's). */
export async function applyAction(
  db: Db,
  ctx: EventContext,
  action: Action,
  facts: { recipientKey?: string; mailabilityReasons?: string[]; heldOutBy?: string | null } | null,
  now: Date,
): Promise<StepOutcome> {
  const { event, campaign } = ctx;
  switch (action.kind) {
    case "none":
      return "stop";
    case "needs_facts":
      throw new Error("the runner evaluates the gates before applying");
    case "skip":
      await skip(
        db,
        ctx,
        action.reason,
        now,
        ["suppressed", "address_invalid", "address_duplicate"].includes(action.reason)
          ? (facts?.mailabilityReasons ?? [])
          : [],
      );
      return "stop";
    case "hold_out": {
      if (!ctx.enrollmentId) {
        await db.enrollment.create({
          data: {
            workspaceId: event.workspaceId,
            campaignId: campaign.id,
            contactId: event.contactId,
            accountId: event.contactAccountId,
            entryEventId: event.id,
            arm: "holdout",
            status: "held_out",
            recipientKey: facts?.recipientKey,
            heldOutBy: facts?.heldOutBy ?? null,
          },
        });
      }
      await setEvent(db, ctx, { status: "held_out", completedAt: now, release: true });
      return "stop";
    }
    case "enroll": {
      await db.enrollment.create({
        data: {
          workspaceId: event.workspaceId,
          campaignId: campaign.id,
          contactId: event.contactId,
          accountId: event.contactAccountId,
          entryEventId: event.id,
          arm: "treatment",
          status: "scheduled",
          scheduledFor: action.scheduledFor,
          recipientKey: facts?.recipientKey,
        },
      });
      await setEvent(db, ctx, { status: "processing" });
      return "continue";
    }
    case "wait": {
      const until =
        action.until ?? (action.reason === "review" ? await reviewExpiry(db, ctx, now) : new Date(now.getTime() + FAR));
      await setEvent(db, ctx, { status: "waiting", runAfter: until, release: true });
      return "stop";
    }
    case "prepare_piece":
      await preparePiece(db, ctx, action.needsReview, now);
      await setEvent(db, ctx, { status: "processing" });
      return "continue";
    case "reserve_budget": {
      const piece = await db.mailPiece.findUniqueOrThrow({ where: { id: ctx.pieceId! }, select: { costCents: true } });
      const reserved = await reserveBudget(db, {
        workspaceId: event.workspaceId,
        campaignId: campaign.id,
        enrollmentId: ctx.enrollmentId!,
        amountCents: piece.costCents,
      });
      if (!reserved) {
        await skip(db, ctx, "budget_exhausted", now);
        return "stop";
      }
      await db.enrollment.update({ where: { id: ctx.enrollmentId! }, data: { status: "in_fulfilment" } });
      await setEvent(db, ctx, { status: "enrolled" });
      return "continue";
    }
    case "open_claim":
      await openGiftClaim(db, {
        workspaceId: event.workspaceId,
        campaignId: campaign.id,
        pieceId: ctx.pieceId!,
        contactId: event.contactId,
        now,
      });
      await setEvent(db, ctx, { status: "enrolled" });
      return "continue";
    case "complete":
      await db.enrollment.update({ where: { id: ctx.enrollmentId! }, data: { status: "mailed" } });
      // A piece the vendor's tracking marked mailed is charged now (a hold already charged is left as it is).
      await chargeReservation(db, { enrollmentId: ctx.enrollmentId!, now });
      await setEvent(db, ctx, { status: "completed", completedAt: now, release: true });
      return "stop";
    case "submit_to_vendor":
      throw new Error("submission to the vendor happens outside the step transaction");
  }
}

async function reviewExpiry(db: Db, ctx: EventContext, now: Date): Promise<Date> {
  const card = ctx.pieceId
    ? await db.confirmationCard.findFirst({
        where: { pieceId: ctx.pieceId, status: "pending" },
        select: { expiresAt: true },
      })
    : null;
  return card?.expiresAt ?? new Date(now.getTime() + REVIEW_WINDOW_MS);
}
