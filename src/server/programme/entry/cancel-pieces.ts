import type { PrismaClient } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { releaseReservation } from "@/server/programme/entry/lifecycle/gates/budget";
import type { FulfilmentAdapter } from "@/server/programme/fulfilment/adapter";
import { adapterFor } from "@/server/programme/fulfilment/registry";
import type { TPrintFormat } from "@/server/programme/fulfilment/sizes";

/**
 * When a campaign is paused or ends: asks the vendor to cancel each of its pieces the vendor has
 * but has not sent yet (Lob's cancel, while the piece is still cancellable), outside any
 * transaction. A cancelled piece is marked so (cancelled_at_vendor) and its budget hold given back.
 * Ended, its event is skipped (campaign_ended). Paused, its event starts again from the top: it
 * waits while the campaign is paused and, on resume, passes the gates again and is printed as a
 * new piece (a new idempotency key at the vendor); the cancelled piece stays in the history. A
 * piece the vendor already sent goes on and is charged as before. Best effort: a vendor that
 * cannot be reached leaves the piece as it was.
 */
export async function cancelUnsentVendorPieces(
  prisma: PrismaClient,
  p: {
    workspaceId: string;
    campaignId: string;
    because?: "ended" | "paused";
    now?: Date;
    adapterFor?: (vendor: string, db: PrismaClient) => Pick<FulfilmentAdapter, "cancel">;
  },
) {
  const now = p.now ?? new Date();
  const because = p.because ?? "ended";
  const pieces = await prisma.mailPiece.findMany({
    where: {
      workspaceId: p.workspaceId,
      campaignId: p.campaignId,
      status: "printed",
      vendorRef: { not: null },
      vendor: { not: "sandbox" },
    },
    select: {
      id: true,
      vendor: true,
      vendorRef: true,
      enrollmentId: true,
      campaign: { select: { format: true, fulfilmentContract: { select: { connectionId: true } } } },
    },
  });
  let cancelled = 0;
  for (const piece of pieces) {
    const adapter = (p.adapterFor ?? adapterFor)(piece.vendor, prisma);
    if (!adapter.cancel) continue;
    try {
      const ok = await adapter.cancel({
        pieceId: piece.id,
        vendorRef: piece.vendorRef!,
        format: piece.campaign.format as TPrintFormat,
        connectionId: piece.campaign.fulfilmentContract?.connectionId,
      });
      if (!ok) continue;
    } catch (error) {
      console.error(`[fulfilment] cancelling piece ${piece.id} at ${piece.vendor} failed`, error);
      continue;
    }
    await prisma.$transaction(async (tx) => {
      const detail =
        because === "ended"
          ? "Cancelled at the printer when the campaign ended; its budget hold was given back."
          : "Cancelled at the printer when the campaign was paused; its budget hold was given back, and the recipient gets a new piece when the campaign resumes.";
      const moved = await tx.mailPiece.updateMany({
        where: { id: piece.id, status: "printed" },
        data: { status: "cancelled", vendorIssue: "cancelled_at_vendor", vendorIssueDetail: detail },
      });
      if (moved.count === 0 || !piece.enrollmentId) return;
      await releaseReservation(tx, { enrollmentId: piece.enrollmentId, now });
      if (because === "ended") {
        await tx.enrollment.update({ where: { id: piece.enrollmentId }, data: { status: "cancelled" } });
        await tx.entryEvent.updateMany({
          where: { enrollment: { id: piece.enrollmentId }, status: { in: ["enrolled", "waiting", "processing"] } },
          data: {
            status: "skipped",
            skipReason: "campaign_ended",
            completedAt: now,
            lockToken: null,
            lockedUntil: null,
          },
        });
      } else {
        await reenterAfterPause(tx, { enrollmentId: piece.enrollmentId, pieceId: piece.id, now });
      }
      cancelled++;
    });
  }
  return { cancelled, checked: pieces.length };
}

/**
 * The event of a piece cancelled at the vendor on pause starts again: the piece is detached from
 * its enrollment (it stays, cancelled, in the history), the enrollment and its released hold go,
 * and the event is accepted anew, so the lifecycle decides it again once the campaign resumes.
 */
async function reenterAfterPause(tx: Db, p: { enrollmentId: string; pieceId: string; now: Date }) {
  const enrollment = await tx.enrollment.findUnique({ where: { id: p.enrollmentId }, select: { entryEventId: true } });
  if (!enrollment) return;
  await tx.mailPiece.update({ where: { id: p.pieceId }, data: { enrollmentId: null } });
  await tx.enrollment.delete({ where: { id: p.enrollmentId } });
  await tx.entryEvent.updateMany({
    where: { id: enrollment.entryEventId, status: { in: ["enrolled", "waiting", "processing"] } },
    data: {
      status: "accepted",
      skipReason: null,
      completedAt: null,
      runAfter: p.now,
      attempts: 0,
      lastError: null,
      lockToken: null,
      lockedUntil: null,
    },
  });
}
