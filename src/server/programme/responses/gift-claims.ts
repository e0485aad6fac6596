import { AppError } from "@/server/ground/errors";
import type { Prisma, PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { GIFT_CATALOG } from "@/server/programme/designs/gift-catalog";
import { addressBlock } from "@/server/programme/designs/recipient";
import { postalAddressOf } from "@/server/programme/fulfilment/addresses";
import { signalWork } from "@/server/ground/signals/entry-wake";
import { renderPieceWithGift } from "./gift-render";
import { resolveLink } from "./page-model";
import { checkShippingAddress, sameAddress, type TShippingAddressInput, type TShippingField } from "./shipping-address";

/** Who the audit log names for what a recipient does on their page (they have no account). */
export const RECIPIENT_ACTOR: Actor = { kind: "system", id: null, label: "The recipient, on their gift claim page" };

export type GiftDecisionResult =
  /** Recorded now, or already decided the same way by an earlier post (nothing counted twice). */
  | { kind: "done" }
  /** The claim is not open (expired, cancelled, never opened): the page answers as for an unknown code. */
  | { kind: "gone" }
  /** The claim was already decided the other way. */
  | { kind: "already"; state: "claimed" | "declined" }
  | { kind: "invalid"; errors: Partial<Record<TShippingField | "gift", string>> };

type Locked = {
  eventId: string;
  claimId: string;
  status: string;
  expiresAt: Date;
  pieceStatus: string;
  eventStatus: string;
};

/**
 * Locks the entry event, then the claim (the order the lifecycle's step takes them: the event row
 * first), and reads whether the claim is still open. Either the runner's step or this decision
 * goes first; neither sees half of the other.
 */
async function lockClaim(tx: Db, p: { eventId: string; claimId: string }): Promise<Locked | null> {
  const [event] = await tx.$queryRaw<
    { status: string }[]
  >`SELECT status::text AS status FROM "EntryEvent" WHERE id = ${p.eventId} FOR UPDATE`;
  const [claim] = await tx.$queryRaw<{ status: string; expiresAt: Date; pieceStatus: string }[]>`
    SELECT gc.status::text AS status, gc."expiresAt", p.status::text AS "pieceStatus"
      FROM "GiftClaim" gc JOIN "MailPiece" p ON p.id = gc."pieceId"
     WHERE gc.id = ${p.claimId} FOR UPDATE OF gc`;
  if (!event || !claim) return null;
  return {
    eventId: p.eventId,
    claimId: p.claimId,
    status: claim.status,
    expiresAt: claim.expiresAt,
    pieceStatus: claim.pieceStatus,
    eventStatus: event.status,
  };
}

const stillOpen = (l: Locked, now: Date) =>
  l.status === "open" &&
  l.expiresAt > now &&
  l.pieceStatus === "approved" &&
  !["held_out", "completed", "skipped", "failed"].includes(l.eventStatus);

/** Makes the waiting event due now, inside the decision's transaction (the worker is nudged after commit). */
async function wakeEvent(tx: Db, eventId: string, now: Date) {
  await tx.$executeRaw`UPDATE "EntryEvent" SET "runAfter" = ${now}, "updatedAt" = now() WHERE id = ${eventId} AND status = 'waiting'`;
}

/**
 * The recipient claims their gift: the chosen gift (one the campaign offers), shipped to the
 * address on the form, checked as the mailability audit checks an address. A corrected address
 * becomes a new version of the shipping address (the original stays) and is what the printer
 * gets; a different gift than the note card named renders the card again. Everything is written
 * in one transaction and the event goes on to the printer at once. Nothing is written when the
 * claim is refused. A second post of a claimed gift changes nothing.
 */
export async function claimGift(
  prisma: PrismaClient,
  p: { code: string; giftItem: string; address: TShippingAddressInput; userAgent: string | null; now?: Date },
): Promise<GiftDecisionResult> {
  const now = p.now ?? new Date();
  const target = await resolveLink(prisma, p.code, now);
  if (target?.kind !== "page" || target.page.kind !== "gift_claim") return { kind: "gone" };
  const page = target.page;
  if (page.claim.state === "claimed") return { kind: "done" };
  if (page.claim.state !== "open") return { kind: "already", state: "declined" };

  const gift = page.gifts.find((g) => g.id === p.giftItem);
  if (!gift) return { kind: "invalid", errors: { gift: "Choose one of the gifts shown." } };
  const checked = await checkShippingAddress(prisma, {
    workspaceId: page.piece.workspaceId,
    recipient: page.recipient,
    address: p.address,
    countries: page.countries,
  });
  if (!checked.ok) return { kind: "invalid", errors: checked.errors };
  const address = checked.address;
  const previous = page.address;
  const changed = !previous || !sameAddress(previous, address);
  // Rendering is slow and reads only: done before the transaction, written inside it.
  const pdf =
    gift.id !== page.claim.giftItem
      ? await renderPieceWithGift(prisma, {
          workspaceId: page.piece.workspaceId,
          pieceId: page.piece.id,
          giftItem: gift.id,
        })
      : null;

  const result = await prisma.$transaction(async (tx): Promise<GiftDecisionResult> => {
    const locked = await lockClaim(tx, { eventId: page.eventId, claimId: page.claim.id });
    if (!locked) return { kind: "gone" };
    if (locked.status === "claimed") return { kind: "done" };
    if (locked.status === "declined") return { kind: "already", state: "declined" };
    if (!stillOpen(locked, now)) return { kind: "gone" };
    const piece = page.piece;
    const base = {
      workspaceId: piece.workspaceId,
      campaignId: piece.campaignId,
      pieceId: piece.id,
      occurredAt: now,
      userAgent: p.userAgent?.slice(0, 500) ?? null,
      occurrenceKey: "claim",
    };
    let version = previous?.version ?? 0;
    if (changed) {
      version += 1;
      await tx.shippingAddress.create({
        data: { workspaceId: piece.workspaceId, pieceId: piece.id, version, source: "recipient", ...address },
      });
      const contact = await tx.mailPiece.findUniqueOrThrow({
        where: { id: piece.id },
        select: {
          contact: { select: { firstName: true, lastName: true, title: true, account: { select: { name: true } } } },
        },
      });
      const c = contact.contact;
      if (!c) throw new AppError("invalid_state", "This piece's contact was deleted; its gift claim is closed.");
      // What the printer gets: the piece's label and the structured address a vendor ships to
      // (vendor-step reads `address` first), both from the new version.
      const shipTo = { ...c, company: c.account?.name ?? null, ...address };
      await tx.mailPiece.update({
        where: { id: piece.id },
        data: {
          recipient: {
            name: `${c.firstName} ${c.lastName}`.trim(),
            lines: addressBlock(shipTo),
            address: postalAddressOf(shipTo) as Prisma.InputJsonValue | null,
            addressVersion: version,
          } as Prisma.InputJsonValue,
        },
      });
      await tx.responseEvent.create({
        data: {
          ...base,
          kind: "address_change",
          data: { fromVersion: previous?.version ?? null, toVersion: version, address } as Prisma.InputJsonValue,
        },
      });
      await recordAudit(
        tx,
        piece.workspaceId,
        RECIPIENT_ACTOR,
        "gift.address_changed",
        { type: "mail_piece", id: piece.id },
        { from: previous ? addressOnly(previous) : null, to: address, version } as Prisma.InputJsonValue,
      );
    }
    if (pdf)
      await tx.mailPiece.update({
        where: { id: piece.id },
        data: { proofPdf: new Uint8Array(pdf), printDraftId: null, renderedAt: now },
      });
    await tx.giftClaim.update({
      where: { id: page.claim.id },
      data: { status: "claimed", giftItem: gift.id, decidedAt: now },
    });
    await tx.responseEvent.create({
      data: {
        ...base,
        kind: "gift_claim",
        data: { gift: gift.id, giftName: GIFT_CATALOG[gift.id].name, addressVersion: version },
      },
    });
    await recordAudit(
      tx,
      piece.workspaceId,
      RECIPIENT_ACTOR,
      "gift.claimed",
      { type: "mail_piece", id: piece.id },
      { gift: gift.id, addressVersion: version },
    );
    await wakeEvent(tx, page.eventId, now);
    return { kind: "done" };
  });
  if (result.kind === "done") signalWork();
  return result;
}

/** The recipient declines the gift: nothing ships, the event ends skipped (gift_declined) and its budget is released. */
export async function declineGift(
  prisma: PrismaClient,
  p: { code: string; userAgent: string | null; now?: Date },
): Promise<GiftDecisionResult> {
  const now = p.now ?? new Date();
  const target = await resolveLink(prisma, p.code, now);
  if (target?.kind !== "page" || target.page.kind !== "gift_claim") return { kind: "gone" };
  const page = target.page;
  if (page.claim.state === "declined") return { kind: "done" };
  if (page.claim.state !== "open") return { kind: "already", state: "claimed" };
  const result = await prisma.$transaction(async (tx): Promise<GiftDecisionResult> => {
    const locked = await lockClaim(tx, { eventId: page.eventId, claimId: page.claim.id });
    if (!locked) return { kind: "gone" };
    if (locked.status === "declined") return { kind: "done" };
    if (locked.status === "claimed") return { kind: "already", state: "claimed" };
    if (!stillOpen(locked, now)) return { kind: "gone" };
    const piece = page.piece;
    await tx.giftClaim.update({ where: { id: page.claim.id }, data: { status: "declined", decidedAt: now } });
    await tx.responseEvent.create({
      data: {
        workspaceId: piece.workspaceId,
        campaignId: piece.campaignId,
        pieceId: piece.id,
        kind: "gift_decline",
        occurredAt: now,
        userAgent: p.userAgent?.slice(0, 500) ?? null,
        occurrenceKey: "claim",
      },
    });
    await recordAudit(tx, piece.workspaceId, RECIPIENT_ACTOR, "gift.declined", { type: "mail_piece", id: piece.id });
    await wakeEvent(tx, page.eventId, now);
    return { kind: "done" };
  });
  if (result.kind === "done") signalWork();
  return result;
}

const addressOnly = (a: TShippingAddressInput) => ({
  addressLine1: a.addressLine1,
  addressLine2: a.addressLine2,
  city: a.city,
  region: a.region,
  postalCode: a.postalCode,
  country: a.country,
});
