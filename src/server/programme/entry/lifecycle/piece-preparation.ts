import { printedName } from "@/server/records/addresses/scripts";
import type { Db } from "@/server/ground/db";
import { createCard } from "@/server/records/cards/store";
import { addressBlock } from "@/server/programme/designs/recipient";
import { draftForPiece } from "@/server/programme/drafts/piece-draft";
import { pieceCostCents } from "@/server/records/pieces/contract-price";
import { postalAddressOf } from "@/server/programme/fulfilment/addresses";
import { loadContact } from "./facts";
import type { EventContext } from "./snapshot";

/** How long a person has to review a piece before the review expires (the event is then skipped). */
export const REVIEW_WINDOW_MS = 7 * 24 * 60 * 60_000;

/**
 * Writes the recipient's piece from their approved draft (its print file, referred to, its copy and response codes;
 * a recipient who entered after the drafts were made, or whose contact changed what it prints since,
 * gets a draft rendered now), with the address as printed. With a review gate it waits for a
 * person's approval on a confirmation card; otherwise it is approved at once.
 */
export async function preparePiece(db: Db, ctx: EventContext, needsReview: boolean, now: Date) {
  const { campaign, event } = ctx;
  const contact = await loadContact(db, event.workspaceId, event.contactId);
  const recipient = { ...contact, company: contact.account?.name ?? null };
  const addressLines = addressBlock(recipient);
  // The contact as read for the piece's address: its draft is printed as it is only if it printed this same recipient.
  const draft = await draftForPiece(db, {
    workspaceId: event.workspaceId,
    campaign,
    contactId: contact.id,
    plan: campaign.plan,
    now,
    contact,
  });
  const piece = await db.mailPiece.create({
    data: {
      workspaceId: event.workspaceId,
      campaignId: campaign.id,
      enrollmentId: ctx.enrollmentId!,
      contactId: contact.id,
      sid: draft.sid,
      responseCode: draft.responseCode,
      status: needsReview ? "pending_review" : "approved",
      // The price to the recipient's country: what the piece reserves of the budget and is charged.
      costCents: pieceCostCents(campaign, contact.country),
      recipient: {
        name: printedName(contact),
        lines: addressLines,
        address: postalAddressOf(recipient) as Record<string, unknown> | null,
      } as object,
      copy: {
        headline: draft.blocks.headline ?? "",
        body: draft.blocks.body ?? "",
        signOff: draft.blocks.signOff ?? "",
      },
      // The draft's stored file, referred to (not copied); a file rendered for this piece alone is its own.
      ...(draft.storedIn ? { printDraftId: draft.storedIn } : { proofPdf: new Uint8Array(draft.pdf) }),
      pages: draft.pages,
      vendor: campaign.contract?.vendor ?? "sandbox",
      renderedAt: now,
    },
  });
  await db.enrollment.update({
    where: { id: ctx.enrollmentId! },
    data: { status: needsReview ? "awaiting_review" : "in_fulfilment" },
  });
  if (needsReview) {
    await createCard(db, {
      workspaceId: event.workspaceId,
      kind: "approve_piece",
      title: `Approve a ${campaign.format} to ${contact.firstName} ${contact.lastName}`,
      summary: `“${campaign.name}” has a review gate: this ${campaign.format} to ${contact.firstName} ${contact.lastName}${recipient.company ? ` at ${recipient.company}` : ""} is printed and mailed only if you approve it. Approving reserves ${(piece.costCents / 100).toFixed(2)} USD of the campaign's budget.`,
      params: { pieceId: piece.id, eventId: event.id },
      campaignId: campaign.id,
      pieceId: piece.id,
      costCents: piece.costCents,
      recipients: 1,
      requestedBy: { kind: "system", id: null, label: `Review gate of “${campaign.name}”` },
      expiresAt: new Date(now.getTime() + REVIEW_WINDOW_MS),
    });
  }
  return piece;
}
