import type { Db } from "@/server/ground/db";
import { designGiftOf } from "@/server/programme/designs/gift-offer";

const DAY = 86_400_000;

/**
 * Opens the claim of a gift whose budget is held (the lifecycle's open_claim action, in its step
 * transaction): the claim, valid for the campaign's claim window, and version 1 of the shipping
 * address (the contact's address as it is now, kept however the recipient corrects it). Returns
 * the existing claim when there is one, so a retried step opens nothing twice.
 */
export async function openGiftClaim(
  db: Db,
  p: { workspaceId: string; campaignId: string; pieceId: string; contactId: string; now: Date },
) {
  const existing = await db.giftClaim.findUnique({ where: { pieceId: p.pieceId } });
  if (existing) return existing;
  const campaign = await db.campaign.findFirstOrThrow({
    where: { id: p.campaignId, workspaceId: p.workspaceId },
    select: { claimWindowDays: true, design: { select: { giftItem: true } } },
  });
  const contact = await db.contact.findFirstOrThrow({
    where: { id: p.contactId, workspaceId: p.workspaceId },
    select: { addressLine1: true, addressLine2: true, city: true, region: true, postalCode: true, country: true },
  });
  await db.shippingAddress.create({
    data: {
      workspaceId: p.workspaceId,
      pieceId: p.pieceId,
      version: 1,
      source: "original",
      addressLine1: contact.addressLine1 ?? "",
      addressLine2: contact.addressLine2,
      city: contact.city ?? "",
      region: contact.region,
      postalCode: contact.postalCode,
      country: contact.country ?? "US",
    },
  });
  return db.giftClaim.create({
    data: {
      workspaceId: p.workspaceId,
      campaignId: p.campaignId,
      pieceId: p.pieceId,
      // The gift the piece's note card names until the recipient chooses another.
      giftItem: designGiftOf(campaign.design),
      expiresAt: new Date(p.now.getTime() + campaign.claimWindowDays * DAY),
    },
  });
}
