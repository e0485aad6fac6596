import type { Db } from "@/server/db";
import { AppError, NOT_FOUND_DETAIL } from "@/server/errors";
import { MAILABILITY_REASONS, type TMailabilityReason } from "@/server/mailability/reasons";
import type { SkipReason } from "./lifecycle-states";

export const WAITING_REASONS = ["frequency_cap", "review", "campaign_paused", "retrying", "queued"] as const;
export type TWaitingReason = (typeof WAITING_REASONS)[number];

export const waitingReasonDescriptions: Record<TWaitingReason, string> = {
  frequency_cap: "The frequency cap defers the piece: it goes on at `until`.",
  review: "The piece waits for a person to approve it on its review card (`cardId`) until `until`, when the review expires.",
  campaign_paused: "The campaign is paused: the event goes on when the owner resumes it (no set time).",
  retrying: "An attempt failed on our side and is retried at `until`.",
  queued: "Due now: a worker will take it at `until` or sooner.",
};

/**
 * One entry event as an agent or the owner reads it: the bounded status of the REST read, and,
 * while it waits, why and until when.
 */
export async function getEntryEventDetail(db: Db, p: { workspaceId: string; campaignId: string; eventId: string; now?: Date }) {
  const now = p.now ?? new Date();
  const event = await db.entryEvent.findFirst({
    where: { id: p.eventId, campaignId: p.campaignId, workspaceId: p.workspaceId },
    select: {
      id: true,
      status: true,
      occurredAt: true,
      skipReason: true,
      mailabilityReasons: true,
      completedAt: true,
      runAfter: true,
      lastError: true,
      contactId: true,
      campaign: { select: { status: true } },
      enrollment: { select: { id: true, scheduledFor: true, mailPiece: { select: { id: true, status: true } } } },
    },
  });
  if (!event) throw new AppError("not_found", NOT_FOUND_DETAIL, { nextStep: "Find the campaign's events with entry_events_list." });
  let waiting: { reason: TWaitingReason; until: string | null; cardId: string | null } | null = null;
  if (!["held_out", "completed", "skipped", "failed"].includes(event.status)) {
    const piece = event.enrollment?.mailPiece;
    const card = piece?.status === "pending_review" ? await db.confirmationCard.findFirst({ where: { pieceId: piece.id, workspaceId: p.workspaceId, status: "pending" }, select: { id: true, expiresAt: true } }) : null;
    if (event.campaign.status === "paused") waiting = { reason: "campaign_paused", until: null, cardId: null };
    else if (card) waiting = { reason: "review", until: card.expiresAt.toISOString(), cardId: card.id };
    else if (event.enrollment?.scheduledFor && event.enrollment.scheduledFor > now) waiting = { reason: "frequency_cap", until: event.enrollment.scheduledFor.toISOString(), cardId: null };
    else if (event.lastError && event.runAfter > now) waiting = { reason: "retrying", until: event.runAfter.toISOString(), cardId: null };
    else waiting = { reason: "queued", until: (event.runAfter > now ? event.runAfter : now).toISOString(), cardId: null };
  }
  return {
    eventId: event.id,
    contactId: event.contactId,
    status: event.status,
    occurredAt: event.occurredAt.toISOString(),
    skipReason: (event.skipReason as SkipReason | null) ?? null,
    /** When the suppression or address gate skipped it: the mailability audit's reasons (see /docs/mailability). */
    mailabilityReasons: (event.mailabilityReasons ?? []).filter((r): r is TMailabilityReason => (MAILABILITY_REASONS as readonly string[]).includes(r)),
    enrollmentId: event.enrollment?.id ?? null,
    pieceId: event.enrollment?.mailPiece?.id ?? null,
    completedAt: event.completedAt?.toISOString() ?? null,
    waiting,
  };
}
