import { getDb } from "@/server/ground/db";
import { fileResponse, mayOpenProof, notFound } from "@/server/programme/designs/proof-access";
import { previewDesign, requireDesign, toDesignLike } from "@/server/programme/designs/service";
import { isAppError } from "@/server/ground/errors";

export const dynamic = "force-dynamic";

/**
 * GET /api/designs/{designId}/proof?workspaceId=…[&contactId=…][&format=png&page=N&width=W]: the
 * design rendered for a contact (or a sample recipient), as the print PDF or one page as a PNG.
 */
export async function GET(req: Request, { params }: { params: Promise<{ designId: string }> }) {
  const { designId } = await params;
  const url = new URL(req.url);
  const contactId = url.searchParams.get("contactId");
  const db = getDb();
  const workspaceId = await mayOpenProof(db, req, { kind: "design", id: designId, contactId });
  if (!workspaceId) return notFound();
  try {
    const design = await requireDesign(db, { workspaceId, designId });
    const png = url.searchParams.get("format") === "png";
    const width = Math.min(Math.max(Number(url.searchParams.get("width")) || 900, 100), 2000);
    const r = await previewDesign(db, {
      workspaceId,
      design: toDesignLike(design),
      contactId,
      widthPx: width,
      guides: false,
      pdf: !png,
    });
    if (!png) {
      if (!r.pdf) throw new Error("previewDesign was asked for a PDF and made none");
      return fileResponse(r.pdf, "application/pdf", `proof-${design.id}.pdf`);
    }
    const page = Math.min(Math.max(Number(url.searchParams.get("page")) || 1, 1), r.pages.length) - 1;
    return fileResponse(r.pages[page].png, "image/png", `proof-${design.id}-${page + 1}.png`);
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") return notFound();
    throw error;
  }
}
