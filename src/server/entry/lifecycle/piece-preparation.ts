import type { Db } from "@/server/db";
import { createCard } from "@/server/confirmations/service";
import { addressBlock, personalise } from "@/server/fulfilment/copy";
import { newResponseCode, newSid } from "@/server/fulfilment/identifiers";
import { renderProof } from "@/server/fulfilment/proof";
import { baseUrl } from "@/server/platform/base-url";
import { loadContact } from "./facts";
import type { EventContext } from "./snapshot";

/** How long a person has to review a piece before the review expires (the event is then skipped). */
export const REVIEW_WINDOW_MS = 7 * 24 * 60 * 60_000;

/** The response link printed on a piece: {base_url}/r/{code}; the QR code adds ?via=qr. */
export const responseLink = (code: string) => `${baseUrl()}/r/${code}`;

/**
 * Writes the recipient's piece: personalised copy, the address as printed, a fresh sid and
 * response code, and its print-ready proof. With a review gate it waits for a person's approval
 * on a confirmation card; otherwise it is approved at once.
 */
export async function preparePiece(db: Db, ctx: EventContext, needsReview: boolean, now: Date) {
  const { campaign, event } = ctx;
  const contact = await loadContact(db, event.workspaceId, event.contactId);
  const brand = await db.brandKit.findUnique({ where: { workspaceId: event.workspaceId } });
  const recipient = { ...contact, company: contact.account?.name ?? null };
  const copy = personalise(campaign, { ...recipient, addressLines: [] });
  const addressLines = addressBlock(recipient);
  const sid = newSid();
  const responseCode = newResponseCode();
  const url = responseLink(responseCode);
  const pdf = await renderProof({
    format: campaign.format,
    copy,
    addressLines,
    returnAddress: brand?.returnAddress ?? "",
    accentColor: brand?.accentColor ?? "#1c7ed6",
    responseUrl: `${url}?via=qr`,
    responseLabel: url.replace(/^https?:\/\//, ""),
    pieceId: `${event.id}`,
  });
  const piece = await db.mailPiece.create({
    data: {
      workspaceId: event.workspaceId,
      campaignId: campaign.id,
      enrollmentId: ctx.enrollmentId!,
      contactId: contact.id,
      sid,
      responseCode,
      status: needsReview ? "pending_review" : "approved",
      costCents: campaign.contract?.unitCostCents ?? 0,
      recipient: { name: `${contact.firstName} ${contact.lastName}`, lines: addressLines },
      copy: { ...copy },
      proofPdf: new Uint8Array(pdf),
      vendor: campaign.contract?.vendor ?? "sandbox",
      renderedAt: now,
    },
  });
  await db.enrollment.update({ where: { id: ctx.enrollmentId! }, data: { status: needsReview ? "awaiting_review" : "in_fulfilment" } });
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
