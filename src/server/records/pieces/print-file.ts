import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";

/**
 * A piece's print file is stored once: most pieces print their draft's PDF (MailPiece.printDraftId,
 * the draft's bytes, not a copy), a few carry their own (MailPiece.proofPdf: fresh response codes,
 * a gift's shipping address, a copy kept when the draft changed). Every reader selects both with
 * `printFileSelect` and reads the file with `piecePdf`.
 */
export const printFileSelect = {
  proofPdf: true,
  printDraft: { select: { pdf: true } },
} satisfies Prisma.MailPieceSelect;

export type PrintFileFields = { proofPdf: Uint8Array | null; printDraft: { pdf: Uint8Array } | null };

/** The piece's print file, or null when it has none (not rendered yet, or its contact was deleted). */
export const piecePdf = (piece: PrintFileFields): Uint8Array | null => piece.proofPdf ?? piece.printDraft?.pdf ?? null;

/** Pieces that have a print file (for a `where`). */
export const hasPrintFile = {
  OR: [{ proofPdf: { not: null } }, { printDraftId: { not: null } }],
} satisfies Prisma.MailPieceWhereInput;

/** One piece's print file read by its id (null: no such piece, or it has none). */
export async function loadPiecePdf(db: Db, pieceId: string): Promise<Uint8Array | null> {
  const piece = await db.mailPiece.findUnique({ where: { id: pieceId }, select: printFileSelect });
  return piece ? piecePdf(piece) : null;
}
