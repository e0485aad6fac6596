import { getDb } from "@/server/ground/db";
import { printFileOf, verifyPrintFileSignature } from "@/server/programme/fulfilment/print-files";
import { piecePdf, printFileSelect } from "@/server/records/pieces/print-file";
import { isIdShaped } from "@/server/ground/platform/stored-text";

export const dynamic = "force-dynamic";

/**
 * GET /api/print-files/{pieceId}/{front|back|file}?expires=…&signature=…: a piece's print file for
 * its print vendor, who downloads it while creating the piece. Only a URL the service signed
 * (and not expired) opens it; anything else is not found.
 */
export async function GET(req: Request, { params }: { params: Promise<{ pieceId: string; side: string }> }) {
  const { pieceId, side } = await params;
  const url = new URL(req.url);
  if (!isIdShaped(pieceId) || !["front", "back", "file"].includes(side))
    return new Response("Not found.", { status: 404 });
  if (!verifyPrintFileSignature(pieceId, side, url.searchParams.get("expires"), url.searchParams.get("signature")))
    return new Response("Not found.", { status: 404 });
  const piece = await getDb().mailPiece.findUnique({ where: { id: pieceId }, select: printFileSelect });
  const pdf = piece && piecePdf(piece);
  if (!pdf) return new Response("Not found.", { status: 404 });
  const file = await printFileOf(new Uint8Array(pdf), side as "front" | "back" | "file");
  return new Response(new Uint8Array(file), {
    headers: { "Content-Type": "application/pdf", "Cache-Control": "private, no-store" },
  });
}
