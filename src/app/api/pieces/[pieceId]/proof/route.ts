import { getSessionUser } from "@/server/records/auth/session";
import { getPieceProof } from "@/server/programme/campaigns/service";
import { getDb } from "@/server/ground/db";
import { fileResponse, mayOpenProof, notFound } from "@/server/programme/designs/proof-access";
import { isAppError } from "@/server/ground/errors";

export const dynamic = "force-dynamic";

/**
 * GET /api/pieces/{pieceId}/proof?workspaceId=…: the piece's print-ready PDF, for a member of its
 * workspace, or for anyone holding the short-lived signed link pieces_get gives an agent.
 */
export async function GET(req: Request, { params }: { params: Promise<{ pieceId: string }> }) {
  const { pieceId } = await params;
  // Neither a signed link nor a session: the person is asked to sign in, as before signed links.
  if (!new URL(req.url).searchParams.has("signature") && !(await getSessionUser()))
    return new Response("Sign in to see proofs.", { status: 401 });
  const db = getDb();
  const workspaceId = await mayOpenProof(db, req, { kind: "piece", id: pieceId });
  if (!workspaceId) return notFound();
  try {
    const piece = await getPieceProof(db, { workspaceId, pieceId });
    return fileResponse(Buffer.from(piece.pdf), "application/pdf", `proof-${piece.id}.pdf`);
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") return notFound();
    throw error;
  }
}
