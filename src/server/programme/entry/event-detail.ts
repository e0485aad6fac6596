import type { Db } from "@/server/ground/db";
import { AppError, NOT_FOUND_DETAIL } from "@/server/ground/errors";
import { responseLink } from "@/server/programme/drafts/response-link";
import { contactIdentity } from "@/server/records/contacts/contact-refs";
import { MAILABILITY_REASONS, type TMailabilityReason } from "@/server/programme/mailability/reasons";
import { type SkipReason, type TWaitingReason, WAITING_REASONS, waitingReasonDescriptions } from "./lifecycle-states";

export { WAITING_REASONS, waitingReasonDescriptions, type TWaitingReason };

/**
 * One entry event as an agent or the owner reads it: the bounded status of the REST read, and,
 * while it waits, why and until when.
 */
export async function getEntryEventDetail(
  db: Db,
  p: { workspaceId: string; campaignId: string; eventId: string; now?: Date },
) {
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
      source: true,
      campaign: { select: { status: true } },
      enrollment: {
        select: {
          id: true,
          scheduledFor: true,
          heldOutBy: true,
          mailPiece: {
            select: {
              id: true,
              status: true,
              responseCode: true,
              giftClaim: { select: { status: true, expiresAt: true } },
            },
          },
        },
      },
    },
  });
  if (!event)
    throw new AppError("not_found", NOT_FOUND_DETAIL, {
      nextStep: "Find the campaign's events with entry_events_list.",
    });
  const waiting = await waitingOf(db, { ...event, workspaceId: p.workspaceId }, now);
  const contact = event.contactId
    ? await contactIdentity(db, { workspaceId: p.workspaceId, contactId: event.contactId })
    : null;
  return {
    eventId: event.id,
    contactId: event.contactId,
    contactEmail: contact?.email ?? null,
    contactCrmIds: contact?.crmIds ?? [],
    source: event.source,
    status: event.status,
    occurredAt: event.occurredAt.toISOString(),
    skipReason: (event.skipReason as SkipReason | null) ?? null,
    /** When the suppression or address gate skipped it: the mailability audit's reasons (see /docs/mailability). */
    mailabilityReasons: (event.mailabilityReasons ?? []).filter((r): r is TMailabilityReason =>
      (MAILABILITY_REASONS as readonly string[]).includes(r),
    ),
    enrollmentId: event.enrollment?.id ?? null,
    /** Another holdout than the campaign's own that held the account out: a campaign's id, or "programme". */
    heldOutBy: event.enrollment?.heldOutBy ?? null,
    pieceId: event.enrollment?.mailPiece?.id ?? null,
    completedAt: event.completedAt?.toISOString() ?? null,
    waiting,
  };
}

export interface TWaiting {
  reason: TWaitingReason;
  until: string | null;
  cardId: string | null;
  /** The hosted claim page of a gift waiting for its recipient. */
  claimUrl: string | null;
}

/** Why an unfinished event is not done yet, and until when; null once it has ended. */
export async function waitingOf(
  db: Db,
  event: {
    workspaceId: string;
    status: string;
    runAfter: Date;
    lastError: string | null;
    campaign: { status: string };
    enrollment: {
      scheduledFor: Date | null;
      mailPiece: {
        id: string;
        status: string;
        responseCode: string;
        giftClaim: { status: string; expiresAt: Date } | null;
      } | null;
    } | null;
  },
  now: Date,
): Promise<TWaiting | null> {
  if (["held_out", "completed", "skipped", "failed"].includes(event.status)) return null;
  const piece = event.enrollment?.mailPiece;
  const none = { cardId: null, claimUrl: null };
  const card =
    piece?.status === "pending_review"
      ? await db.confirmationCard.findFirst({
          where: { pieceId: piece.id, workspaceId: event.workspaceId, status: "pending" },
          select: { id: true, expiresAt: true },
        })
      : null;
  const claim = piece?.giftClaim?.status === "open" && piece.giftClaim.expiresAt > now ? piece.giftClaim : null;
  if (event.campaign.status === "paused") return { reason: "campaign_paused", until: null, ...none };
  if (card) return { reason: "review", until: card.expiresAt.toISOString(), ...none, cardId: card.id };
  if (claim && piece)
    return {
      reason: "gift_claim",
      until: claim.expiresAt.toISOString(),
      ...none,
      claimUrl: responseLink(piece.responseCode),
    };
  if (event.enrollment?.scheduledFor && event.enrollment.scheduledFor > now)
    return { reason: "frequency_cap", until: event.enrollment.scheduledFor.toISOString(), ...none };
  if (event.lastError && event.runAfter > now)
    return { reason: "retrying", until: event.runAfter.toISOString(), ...none };
  return { reason: "queued", until: (event.runAfter > now ? event.runAfter : now).toISOString(), ...none };
}
