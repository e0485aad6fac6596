import { contactsCsv } from "@/server/records/contacts/export";
import { ZContactFilter } from "@/server/records/contacts/schema";
import { countContacts } from "@/server/records/contacts/service";
import { getDb } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { attachment, errorResponse, requireOwner, streamText } from "@/server/programme/imports/http";

export const dynamic = "force-dynamic";

/** GET /api/contacts/export?workspaceId=…&search=&audienceId=&accountId=&country=&suppressed=: the contacts a filter selects, as CSV. */
export async function GET(req: Request) {
  try {
    const owner = await requireOwner(req, "read");
    const q = new URL(req.url).searchParams;
    const parsed = ZContactFilter.safeParse({
      search: q.get("search") || undefined,
      audienceId: q.get("audienceId") || undefined,
      accountId: q.get("accountId") || undefined,
      country: q.get("country") || undefined,
      suppressed: q.get("suppressed") === "true" ? true : q.get("suppressed") === "false" ? false : undefined,
    });
    if (!parsed.success) throw new AppError("validation_failed", parsed.error.issues.map((i) => i.message).join(" "));
    await countContacts(getDb(), { workspaceId: owner.workspaceId, ...parsed.data });
    return streamText(contactsCsv(getDb(), { workspaceId: owner.workspaceId, filter: parsed.data }), {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": attachment(`contacts-${new Date().toISOString().slice(0, 10)}.csv`),
      "Cache-Control": "private, no-store",
    });
  } catch (error) {
    return errorResponse(error);
  }
}
