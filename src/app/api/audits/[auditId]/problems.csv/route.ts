import { getDb } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { attachment, errorResponse, requireOwner, streamText } from "@/server/programme/imports/http";
import { auditProblemsCsv } from "@/server/programme/mailability/export";
import { ZMailabilityReason } from "@/server/programme/mailability/reasons";
import { ZAuditId } from "@/server/programme/mailability/schema";

export const dynamic = "force-dynamic";

/** GET /api/audits/{auditId}/problems.csv?workspaceId=…&reason=: an audit's contacts with a problem, as CSV. */
export async function GET(req: Request, { params }: { params: Promise<{ auditId: string }> }) {
  try {
    const owner = await requireOwner(req, "read");
    const auditId = ZAuditId.safeParse((await params).auditId);
    const reasonParam = new URL(req.url).searchParams.get("reason");
    const reason = reasonParam ? ZMailabilityReason.safeParse(reasonParam) : null;
    if (!auditId.success) throw new AppError("not_found", "No such audit in this workspace.");
    if (reasonParam && reason && !reason.success)
      throw new AppError(
        "validation_failed",
        `reason must be one of the audit's reasons, not “${reasonParam.slice(0, 40)}”.`,
      );
    const lines = auditProblemsCsv(getDb(), {
      workspaceId: owner.workspaceId,
      auditId: auditId.data,
      reason: reason?.data,
    });
    // The first chunk checks the audit exists, so a wrong id is a 404 rather than a broken download.
    const first = await lines.next();
    async function* all() {
      if (!first.done) yield first.value;
      yield* lines;
    }
    return streamText(all(), {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": attachment(`mailability-problems-${auditId.data}.csv`),
      "Cache-Control": "private, no-store",
    });
  } catch (error) {
    return errorResponse(error);
  }
}
