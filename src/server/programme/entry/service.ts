import type { EntryEventSource } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { AppError, NOT_FOUND_DETAIL } from "@/server/ground/errors";
import { fingerprint } from "@/server/ground/platform/fingerprint";
import { acceptOrExplain, findByIdempotencyKey } from "./acceptance-queries";
import { waitingOf } from "./event-detail";
import { contactIdentity, resolveContactRef } from "@/server/records/contacts/contact-refs";
import { signalWork } from "@/server/ground/signals/entry-wake";
import type { SkipReason } from "./lifecycle-states";
import type { TEntryEventStatus, TPostEntryEventInput } from "./schema";

interface EventRow {
  id: string;
  status: TEntryEventStatus["status"];
  fingerprint: string;
}

function replayOrConflict(existing: EventRow, print: string) {
  if (existing.fingerprint !== print) {
    throw new AppError(
      "idempotency_key_reused",
      "This idempotencyKey was already used in this workspace for a different entry event (another campaign, contact or occurredAt).",
      {
        errors: [
          {
            pointer: "/idempotencyKey",
            detail: "Already used for a different entry event; use a new key for a new source event.",
          },
        ],
      },
    );
  }
  return { eventId: existing.id, status: existing.status, replayed: true };
}

/**
 * Accepts an entry event that admits an existing contact to a live campaign (spec 4.1). The
 * event is stored as `accepted` and the lifecycle runner takes it from there; acceptance bypasses
 * none of the campaign's gates. Idempotent per workspace and idempotencyKey: the same body returns
 * the same event and its current status, other data under the same key is a conflict. Nothing is
 * written when a precondition fails.
 */
export async function acceptEntryEvent(
  db: Db,
  params: {
    workspaceId: string;
    apiKeyId: string | null;
    source: EntryEventSource;
    input: TPostEntryEventInput;
    now?: Date;
  },
) {
  const { workspaceId } = params;
  // An email or CRM record id becomes our id first, so the event is the same whichever the caller names.
  const contactId = await resolveContactRef(db, { workspaceId, ref: params.input.contactId });
  const input = { ...params.input, contactId };
  const now = params.now ?? new Date();
  const occurredAt = input.occurredAt ? new Date(input.occurredAt) : null;
  const print = fingerprint({
    campaignId: input.campaignId,
    contactId,
    occurredAt: occurredAt?.toISOString(),
  });
  // One statement: the preconditions, and the insert when they hold (see acceptance-queries.ts).
  const outcome = await acceptOrExplain(db, {
    workspaceId,
    campaignId: input.campaignId,
    contactId: input.contactId,
    source: params.source,
    apiKeyId: params.apiKeyId,
    idempotencyKey: input.idempotencyKey,
    fingerprint: print,
    occurredAt: occurredAt ?? now,
    now,
  });
  if (!outcome) throw new AppError("not_found", NOT_FOUND_DETAIL);
  if (outcome.existing) return { ...replayOrConflict(outcome.existing, print), contactId };

  if (outcome.campaignStatus !== "live") {
    throw new AppError(
      "campaign_not_live",
      `The campaign is ${outcome.campaignStatus}; entry events are accepted only while it is live. Nothing was written.`,
    );
  }
  if (params.source !== "owner" && !outcome.acceptsApiEvents) {
    throw new AppError(
      "api_entry_not_accepted",
      "The campaign's frozen entry policy does not accept API entry events. Nothing was written.",
    );
  }
  if (!outcome.contactExists) {
    throw new AppError(
      "contact_not_found",
      "No contact with this contactId exists in the workspace. Nothing was written.",
      {
        errors: [{ pointer: "/contactId", detail: "No contact with this id exists in the workspace." }],
      },
    );
  }
  if (!outcome.isMember) {
    throw new AppError(
      "contact_not_in_audience",
      "The contact is not in the campaign's audience. Nothing was written.",
      {
        errors: [{ pointer: "/contactId", detail: "The contact is not a member of the campaign's audience." }],
      },
    );
  }
  if (outcome.inserted) {
    signalWork();
    return { eventId: outcome.inserted.id, status: outcome.inserted.status, replayed: false, contactId };
  }
  // Every precondition held but a concurrent twin took the key first: read the winner's row.
  const winner = await findByIdempotencyKey(db, workspaceId, input.idempotencyKey);
  if (!winner) throw new Error("entry event vanished after a conflicting insert");
  return { ...replayOrConflict(winner, print), contactId };
}

/**
 * The bounded status of one event (spec 2.3, 4.2), visible only to the key that posted it and only
 * under its own campaign; everything else is the same 404.
 */
export async function getEntryEventStatus(
  db: Db,
  params: { workspaceId: string; campaignId: string; eventId: string; apiKeyId?: string },
): Promise<TEntryEventStatus> {
  const event = await db.entryEvent.findFirst({
    where: {
      id: params.eventId,
      campaignId: params.campaignId,
      workspaceId: params.workspaceId,
      ...(params.apiKeyId ? { apiKeyId: params.apiKeyId } : {}),
    },
    select: {
      id: true,
      status: true,
      contactId: true,
      occurredAt: true,
      skipReason: true,
      completedAt: true,
      runAfter: true,
      lastError: true,
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
  if (!event) throw new AppError("not_found", NOT_FOUND_DETAIL);
  const waiting =
    event.status === "waiting" ? await waitingOf(db, { ...event, workspaceId: params.workspaceId }, new Date()) : null;
  const contact = event.contactId
    ? await contactIdentity(db, { workspaceId: params.workspaceId, contactId: event.contactId })
    : null;
  return {
    eventId: event.id,
    status: event.status,
    occurredAt: event.occurredAt.toISOString(),
    ...(contact
      ? {
          contactId: contact.contactId,
          ...(contact.email ? { contactEmail: contact.email } : {}),
          contactCrmIds: contact.crmIds,
        }
      : {}),
    ...(event.skipReason ? { skipReason: event.skipReason as SkipReason } : {}),
    ...(event.enrollment ? { enrollmentId: event.enrollment.id } : {}),
    ...(event.enrollment?.heldOutBy ? { heldOutBy: event.enrollment.heldOutBy } : {}),
    ...(event.completedAt ? { completedAt: event.completedAt.toISOString() } : {}),
    ...(waiting ? { waitingReason: waiting.reason, ...(waiting.until ? { waitingUntil: waiting.until } : {}) } : {}),
  };
}
