import { Prisma, type PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { lockContactWrites } from "@/server/records/contacts/write";
import { chargeReservation, releaseReservation } from "@/server/programme/entry/lifecycle/gates/budget";
import { REDACTED_RECIPIENT } from "@/server/records/pieces/deleted-contact";
import { eraseImportCopies } from "./import-copies";
import { findInFlight, inFlightSentence } from "./in-flight";

/** Unfinished entry-event statuses: what erasure ends. */
const UNFINISHED = ["accepted", "processing", "waiting", "enrolled"] as const;
/** Piece statuses not yet at a printer (cancelled outright when the contact goes). */
const UNSENT = ["pending_review", "approved", "rendered"] as const;

export interface TErasure {
  contactId: string;
  deleted: true;
  audienceMemberships: number;
  piecesKept: number;
  piecesCancelled: number;
  eventsEnded: number;
  suppressed: ("email" | "address")[];
}

/**
 * Deletes one contact of the workspace (the owner's Delete button and contacts_delete): the person
 * goes, the programme's record stays (docs/contact-erasure.md lists both). One transaction under the
 * workspace's contact-write lock; the contact's unfinished entry events are locked first, so no
 * worker claims them meanwhile. Refused, with nothing written, while a piece of theirs is at a
 * printer and not yet mailed (in-flight.ts says when to retry) or a worker holds one of their
 * events. With `suppress`, the email and the normalised address go on the suppression list so a
 * later import or CRM sync never gets the person mailed again. A contact already deleted (or of
 * another workspace) is not_found. Audit-logged without personal data.
 */
export async function eraseContact(
  prisma: PrismaClient,
  p: { workspaceId: string; contactId: string; actor: Actor; suppress?: boolean; now?: Date },
): Promise<TErasure> {
  const now = p.now ?? new Date();
  return prisma.$transaction(async (tx) => {
    await lockContactWrites(tx, p.workspaceId);
    // The contact's row itself, so an entry event accepted meanwhile (REST, send-to, go-live) waits
    // for this transaction and then finds no contact, instead of entering a person being deleted.
    await tx.$queryRaw`SELECT id FROM "Contact" WHERE id = ${p.contactId} AND "workspaceId" = ${p.workspaceId} FOR UPDATE`;
    const contact = await tx.contact.findFirst({
      where: { id: p.contactId, workspaceId: p.workspaceId },
      select: {
        id: true,
        email: true,
        firstName: true,
        lastName: true,
        phone: true,
        addressLine1: true,
        addressKey: true,
        accountId: true,
        _count: { select: { audienceMembers: true } },
      },
    });
    if (!contact) {
      throw new AppError(
        "not_found",
        `No contact ${p.contactId} in this workspace: it was deleted already, or never was here. contacts_list finds contacts.`,
      );
    }
    const events = await tx.$queryRaw<{ id: string; status: string; lockedUntil: Date | null }[]>`
      SELECT id, status::text AS status, "lockedUntil" FROM "EntryEvent"
       WHERE "contactId" = ${contact.id} AND "workspaceId" = ${p.workspaceId} AND status::text IN (${Prisma.join([...UNFINISHED])})
       ORDER BY id FOR UPDATE`;
    // A worker's claim is its lease, whatever the event's status (a claimed event may be waiting or
    // enrolled, on its way to the printer): while one holds an event, nothing is deleted.
    const busy = events.find((e) => e.lockedUntil && e.lockedUntil > now);
    if (busy) {
      throw new AppError(
        "invalid_state",
        `A worker is processing entry event ${busy.id} for this contact right now; nothing was deleted. Try again in a minute.`,
      );
    }
    const pieces = await tx.mailPiece.findMany({
      where: { contactId: contact.id, workspaceId: p.workspaceId },
      select: {
        id: true,
        status: true,
        vendor: true,
        vendorSubmittedAt: true,
        enrollmentId: true,
        campaign: { select: { name: true } },
      },
    });
    const inFlight = findInFlight(pieces);
    if (inFlight.length)
      throw new AppError("invalid_state", inFlightSentence(inFlight), {
        nextStep: "Retry once the pieces are mailed, or end the campaign to cancel them at the printer first.",
      });

    // Pieces not at a printer yet are cancelled, and their budget hold given back.
    const unsent = pieces.filter((pc) => (UNSENT as readonly string[]).includes(pc.status));
    for (const pc of unsent) {
      await tx.mailPiece.update({
        where: { id: pc.id },
        data: { status: "cancelled", vendorIssueDetail: "Cancelled before printing: its contact was deleted." },
      });
      if (pc.enrollmentId) {
        await releaseReservation(tx, { enrollmentId: pc.enrollmentId, now });
        await tx.enrollment.update({ where: { id: pc.enrollmentId }, data: { status: "cancelled" } });
      }
    }
    await tx.giftClaim.updateMany({
      where: { pieceId: { in: pieces.map((pc) => pc.id) }, status: "open" },
      data: { status: "cancelled", decidedAt: now },
    });
    // Review cards of the person's pieces: pending ones expire (their piece is cancelled), and no card keeps the name.
    const cardsOf = { workspaceId: p.workspaceId, pieceId: { in: pieces.map((pc) => pc.id) } };
    await tx.confirmationCard.updateMany({
      where: { ...cardsOf, status: "pending" },
      data: { status: "expired", decidedAt: now, executionError: "Its contact was deleted." },
    });
    await tx.confirmationCard.updateMany({
      where: cardsOf,
      data: {
        title: "Approve a piece to a deleted contact",
        summary:
          "The contact this piece was for has been deleted; the piece is kept as the campaign's record without their name or address.",
      },
    });
    const eventsEnded = await endEvents(
      tx,
      events.map((e) => e.id),
      pieces,
      now,
    );

    await redactPieces(
      tx,
      p.workspaceId,
      pieces.map((pc) => pc.id),
      contact.accountId,
      now,
    );
    await tx.enrollment.updateMany({
      where: { contactId: contact.id, workspaceId: p.workspaceId },
      data: { recipientKey: null },
    });
    const suppressed = p.suppress ? await suppress(tx, p.workspaceId, contact, p.actor) : [];
    // The verification cache holds the standardised address: it goes unless another contact has it
    // (a suppressed address is kept as its key, on the suppression list only).
    if (contact.addressKey) {
      const shared = await tx.contact.count({
        where: { workspaceId: p.workspaceId, addressKey: contact.addressKey, id: { not: contact.id } },
      });
      if (!shared)
        await tx.addressVerification.deleteMany({
          where: { workspaceId: p.workspaceId, addressKey: contact.addressKey },
        });
    }
    await tx.crmRecordLink.deleteMany({
      where: { workspaceId: p.workspaceId, objectType: { in: ["contact", "lead"] }, localId: contact.id },
    });
    await eraseImportCopies(tx, p.workspaceId, contact);
    await tx.contactImportDuplicate.updateMany({
      where: { contactId: contact.id, import: { workspaceId: p.workspaceId } },
      data: { contactId: null },
    });
    // Audience memberships, drafts, mailability results and field history go with the row (cascade);
    // entry events, enrollments and pieces keep their rows with contactId null (set null).
    await tx.contact.deleteMany({ where: { id: contact.id, workspaceId: p.workspaceId } });

    const result: TErasure = {
      contactId: contact.id,
      deleted: true,
      audienceMemberships: contact._count.audienceMembers,
      piecesKept: pieces.length - unsent.length,
      piecesCancelled: unsent.length,
      eventsEnded,
      suppressed,
    };
    const { contactId: _id, deleted: _d, ...counts } = result;
    await recordAudit(tx, p.workspaceId, p.actor, "contact.deleted", { type: "contact", id: contact.id }, counts);
    return result;
  });
}

/**
 * Ends the contact's unfinished events: one whose piece was already mailed completes (its hold is
 * charged, as the lifecycle's next step would have); every other one is skipped with
 * contact_deleted, its enrollment cancelled and its hold released.
 */
async function endEvents(
  tx: Db,
  eventIds: string[],
  pieces: { enrollmentId: string | null; status: string }[],
  now: Date,
) {
  if (!eventIds.length) return 0;
  const enrollments = await tx.enrollment.findMany({
    where: { entryEventId: { in: eventIds } },
    select: { id: true, entryEventId: true },
  });
  const mailed = new Set(
    pieces.filter((pc) => pc.status === "mailed" && pc.enrollmentId).map((pc) => pc.enrollmentId!),
  );
  const done = { completedAt: now, lockToken: null, lockedUntil: null, lastError: null };
  let completed = 0;
  for (const en of enrollments) {
    if (mailed.has(en.id)) {
      completed++;
      await chargeReservation(tx, { enrollmentId: en.id, now });
      await tx.enrollment.update({ where: { id: en.id }, data: { status: "mailed" } });
      await tx.entryEvent.update({ where: { id: en.entryEventId }, data: { ...done, status: "completed" } });
    } else {
      await releaseReservation(tx, { enrollmentId: en.id, now });
      await tx.enrollment.updateMany({
        where: { id: en.id, status: { not: "cancelled" } },
        data: { status: "cancelled" },
      });
    }
  }
  const skipped = await tx.entryEvent.updateMany({
    where: { id: { in: eventIds }, status: { in: [...UNFINISHED] } },
    data: { ...done, status: "skipped", skipReason: "contact_deleted" },
  });
  return skipped.count + completed;
}

/**
 * The kept pieces lose the person: the printed recipient (name and address), the personalised copy,
 * the print file, gift shipping addresses, what the recipient wrote in replies and address changes
 * (in responses, their webhook events and the audit log). The account they count for stays on them.
 */
async function redactPieces(tx: Db, workspaceId: string, pieceIds: string[], accountId: string | null, now: Date) {
  if (!pieceIds.length) return;
  await tx.mailPiece.updateMany({
    where: { id: { in: pieceIds }, workspaceId },
    data: {
      recipient: REDACTED_RECIPIENT,
      copy: {},
      proofPdf: null,
      printDraftId: null,
      accountId,
      contactDeletedAt: now,
    },
  });
  await tx.shippingAddress.deleteMany({ where: { pieceId: { in: pieceIds }, workspaceId } });
  await tx.responseEvent.updateMany({ where: { pieceId: { in: pieceIds }, workspaceId }, data: { userAgent: null } });
  await tx.responseEvent.updateMany({
    where: { pieceId: { in: pieceIds }, workspaceId, kind: { in: ["reply", "address_change"] } },
    data: { data: { redacted: true } },
  });
  await tx.$executeRaw`
    UPDATE "WebhookEvent" SET data = jsonb_set(data, '{details}', '{"redacted": true}'::jsonb)
     WHERE "workspaceId" = ${workspaceId} AND type = 'response.received' AND data ? 'details' AND data->>'pieceId' IN (${Prisma.join(pieceIds)})`;
  await tx.auditLogEntry.updateMany({
    where: { workspaceId, targetType: "mail_piece", targetId: { in: pieceIds }, action: "gift.address_changed" },
    data: { data: { redacted: true } },
  });
}

/** The email and the normalised address on the suppression list (do-not-mail), so the person is never mailed again. */
async function suppress(
  tx: Db,
  workspaceId: string,
  c: { id: string; email: string | null; addressKey: string | null },
  actor: Actor,
) {
  const entries = [
    ...(c.email ? [{ kind: "email" as const, value: c.email, label: c.email }] : []),
    ...(c.addressKey
      ? [{ kind: "address" as const, value: c.addressKey, label: `The address of deleted contact ${c.id}` }]
      : []),
  ];
  if (!entries.length) return [];
  await tx.suppression.createMany({
    data: entries.map((e) => ({
      workspaceId,
      ...e,
      reason: "do_not_mail" as const,
      source: actor.kind === "user" ? ("owner" as const) : ("agent" as const),
      createdBy: actor.label,
    })),
    skipDuplicates: true,
  });
  return entries.map((e) => e.kind);
}
