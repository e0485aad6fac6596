import { getDb } from "@/server/ground/db";
import { fileResponse, mayOpenProof, notFound } from "@/server/programme/designs/proof-access";
import { draftImages, draftPdf } from "@/server/programme/drafts/service";
import { isAppError } from "@/server/ground/errors";

export const dynamic = "force-dynamic";

/**
 * GET /api/drafts/{draftId}/proof?workspaceId=…[&format=png&page=N&width=W]: one recipient's draft,
 * as its stored print PDF or one page as a PNG (the drafts grid's thumbnails).
 */
export async function GET(req: Request, { params }: { params: Promise<{ draftId: string }> }) {
  const { draftId } = await params;
  const url = new URL(req.url);
  const db = getDb();
  const workspaceId = await mayOpenProof(db, req, { kind: "draft", id: draftId });
  if (!workspaceId) return notFound();
  try {
    if (url.searchParams.get("format") !== "png") {
      const d = await draftPdf(db, { workspaceId, draftId });
      return fileResponse(d.pdf, "application/pdf", `draft-${d.id}.pdf`);
    }
    const width = Math.min(Math.max(Number(url.searchParams.get("width")) || 480, 100), 2000);
    const page = Math.max(Number(url.searchParams.get("page")) || 1, 1) - 1;
    const [p] = await draftImages(db, { workspaceId, draftId, widthPx: width, page });
    return fileResponse(p.png, "image/png", `draft-${draftId}-${page + 1}.png`);
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") return notFound();
    throw error;
  }
}
