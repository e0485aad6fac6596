import type { CardKind, ConfirmationCard } from "@/generated/prisma/client";
import type { Db } from "@/server/db";
import { wakeEventOfEnrollment } from "@/server/entry/lifecycle/wake";

/**
 * What accepting (or declining) a card does, per kind, run inside the transaction that records the
 * decision, so it happens exactly once. Kinds without an executor cannot be accepted yet.
 */
export type CardExecutor = (db: Db, card: ConfirmationCard, decision: "accept" | "decline", now: Date) => Promise<Record<string, unknown>>;

const approvePiece: CardExecutor = async (db, card, decision, now) => {
  if (!card.pieceId) throw new Error(`card ${card.id} names no piece`);
  const piece = await db.mailPiece.findFirst({ where: { id: card.pieceId, workspaceId: card.workspaceId } });
  if (!piece || piece.status !== "pending_review") return { piece: piece?.status ?? "missing" };
  await db.mailPiece.update({
    where: { id: piece.id },
    data: decision === "accept" ? { status: "approved", reviewedAt: now } : { status: "cancelled", reviewedAt: now },
  });
  if (piece.enrollmentId) await wakeEventOfEnrollment(db, piece.enrollmentId, now);
  return { piece: decision === "accept" ? "approved" : "cancelled" };
};

export const cardExecutors: Partial<Record<CardKind, CardExecutor>> = {
  approve_piece: approvePiece,
};

/** Registers an executor (campaign actions register theirs from their own module). */
export function registerCardExecutor(kind: CardKind, executor: CardExecutor) {
  cardExecutors[kind] = executor;
}
