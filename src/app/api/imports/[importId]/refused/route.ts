import { getDb } from "@/server/ground/db";
import { importIssuesCsv } from "@/server/programme/imports/export";
import { attachment, errorResponse, requireOwner, streamText } from "@/server/programme/imports/http";
import { getImport } from "@/server/programme/imports/service";

export const dynamic = "force-dynamic";

/** GET /api/imports/{importId}/refused?workspaceId=…: the refused rows (and warnings) as CSV, with row numbers and reasons. */
export async function GET(req: Request, { params }: { params: Promise<{ importId: string }> }) {
  try {
    const owner = await requireOwner(req, "read");
    const { importId } = await params;
    const view = await getImport(getDb(), { workspaceId: owner.workspaceId, importId });
    const kind = new URL(req.url).searchParams.get("kind") === "warning" ? "warning" : "refused";
    return streamText(importIssuesCsv(getDb(), { workspaceId: owner.workspaceId, importId, kind }), {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": attachment(`${view.fileName.replace(/\.[^.]+$/, "")}-${kind}-rows.csv`),
      "Cache-Control": "private, no-store",
    });
  } catch (error) {
    return errorResponse(error);
  }
}
