import { getDb } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { errorResponse, requireOwner } from "@/server/programme/imports/http";
import { discardUpload } from "@/server/programme/imports/service";
import { isIdShaped } from "@/server/ground/platform/stored-text";

export const dynamic = "force-dynamic";

/**
 * DELETE /api/imports/{importId}?workspaceId=…: discards a file uploaded (POST /api/imports) and
 * never imported, with its kept file. The import wizard calls it as its page is left (a keepalive
 * request outlives the page); an import that has started is refused (409) and kept.
 */
export async function DELETE(req: Request, { params }: { params: Promise<{ importId: string }> }) {
  try {
    const owner = await requireOwner(req, "prepare");
    const { importId } = await params;
    if (!isIdShaped(importId)) throw new AppError("not_found", "No such import in this workspace.");
    return Response.json(
      await discardUpload(getDb(), { workspaceId: owner.workspaceId, importId, actor: owner.actor }),
    );
  } catch (error) {
    return errorResponse(error);
  }
}
