import { getDb } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { bodyChunks, errorResponse, requireOwner } from "@/server/programme/imports/http";
import { receiveUpload } from "@/server/programme/imports/upload";

export const dynamic = "force-dynamic";

/**
 * POST /api/imports?workspaceId=…: the owner's CSV upload. The body is the file itself, streamed
 * (not a form), its name in the X-File-Name header (URI-encoded; a header a cross-site form cannot
 * send). Answers the detected encoding, delimiter, columns, first rows and suggested mapping.
 */
export async function POST(req: Request) {
  try {
    const owner = await requireOwner(req, "prepare");
    const name = req.headers.get("x-file-name");
    if (!name) throw new AppError("malformed_request", "Send the file's name in the X-File-Name header.");
    let fileName: string;
    try {
      fileName = decodeURIComponent(name);
    } catch {
      throw new AppError("malformed_request", "The X-File-Name header is not URI-encoded.");
    }
    const result = await receiveUpload(getDb(), {
      workspaceId: owner.workspaceId,
      fileName,
      body: bodyChunks(req.body),
      actor: owner.actor,
    });
    return Response.json(result, { status: 201 });
  } catch (error) {
    return errorResponse(error);
  }
}
