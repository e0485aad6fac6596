import { getSessionUser } from "@/server/auth/session";
import { getPieceProof } from "@/server/campaigns/service";
import { getDb } from "@/server/db";
import { isAppError } from "@/server/errors";
import { isIdShaped } from "@/server/platform/stored-text";

export const dynamic = "force-dynamic";

/** GET /api/pieces/{pieceId}/proof?workspaceId=…: the piece's print-ready PDF, for a member of its workspace. */
export async function GET(req: Request, { params }: { params: Promise<{ pieceId: string }> }) {
  const user = await getSessionUser();
  if (!user) return new Response("Sign in to see proofs.", { status: 401 });
  const { pieceId } = await params;
  const workspaceId = new URL(req.url).searchParams.get("workspaceId") ?? "";
  // Ids no record can have are simply not found (they never reach the database).
  if (![pieceId, workspaceId].every(isIdShaped)) return new Response("Not found.", { status: 404 });
  const db = getDb();
  const member = await db.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId: user.id } } });
  if (!member) return new Response("Not found.", { status: 404 });
  try {
    const piece = await getPieceProof(db, { workspaceId, pieceId });
    return new Response(new Uint8Array(piece.proofPdf!), {
      headers: { "Content-Type": "application/pdf", "Content-Disposition": `inline; filename="proof-${piece.id}.pdf"`, "Cache-Control": "private, no-store" },
    });
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") return new Response("Not found.", { status: 404 });
    throw error;
  }
}
