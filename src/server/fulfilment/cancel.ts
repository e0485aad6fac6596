import type { PrismaClient } from "@/generated/prisma/client";
import { releaseReservation } from "@/server/entry/lifecycle/gates/budget";
import type { FulfilmentAdapter } from "./adapter";
import { adapterFor } from "./registry";
import type { TPrintFormat } from "./sizes";

/**
 * When a campaign ends: asks the vendor to cancel each of its pieces the vendor has but has not
 * sent yet (Lob's cancel, while the piece is still cancellable), outside any transaction. A
 * cancelled piece is marked so (cancelled_at_vendor), its budget hold is given back and its event
 * skipped (campaign_ended); a piece the vendor already sent goes on and is charged as before.
 * Best effort: a vendor that cannot be reached leaves the piece as it was.
 */
export async function cancelUnsentVendorPieces(
  prisma: PrismaClient,
  p: { workspaceId: string; campaignId: string; now?: Date; adapterFor?: (vendor: string, db: PrismaClient) => Pick<FulfilmentAdapter, "cancel"> },
) {
  const now = p.now ?? new Date();
  const pieces = await prisma.mailPiece.findMany({
    where: { workspaceId: p.workspaceId, campaignId: p.campaignId, status: "printed", vendorRef: { not: null }, vendor: { not: "sandbox" } },
    select: { id: true, vendor: true, vendorRef: true, enrollmentId: true, campaign: { select: { format: true, fulfilmentContract: { select: { connectionId: true } } } } },
  });
  let cancelled = 0;
  for (const piece of pieces) {
    const adapter = (p.adapterFor ?? adapterFor)(piece.vendor, prisma);
    if (!adapter.cancel) continue;
    try {
      const ok = await adapter.cancel({ pieceId: piece.id, vendorRef: piece.vendorRef!, format: piece.campaign.format as TPrintFormat, connectionId: piece.campaign.fulfilmentContract?.connectionId });
      if (!ok) continue;
    } catch (error) {
      console.error(`[fulfilment] cancelling piece ${piece.id} at ${piece.vendor} failed`, error);
      continue;
    }
    await prisma.$transaction(async (tx) => {
      const moved = await tx.mailPiece.updateMany({ where: { id: piece.id, status: "printed" }, data: { status: "cancelled", vendorIssue: "cancelled_at_vendor", vendorIssueDetail: "Cancelled at the printer when the campaign ended; its budget hold was given back." } });
      if (moved.count === 0 || !piece.enrollmentId) return;
      await tx.enrollment.update({ where: { id: piece.enrollmentId }, data: { status: "cancelled" } });
      await releaseReservation(tx, { enrollmentId: piece.enrollmentId, now });
      await tx.entryEvent.updateMany({
        where: { enrollment: { id: piece.enrollmentId }, status: { in: ["enrolled", "waiting", "processing"] } },
        data: { status: "skipped", skipReason: "campaign_ended", completedAt: now, lockToken: null, lockedUntil: null },
      });
      cancelled++;
    });
  }
  return { cancelled, checked: pieces.length };
}
