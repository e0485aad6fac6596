import { SECURITY_HEADERS } from "@/server/ground/http/security-headers";
import { getDb } from "@/server/ground/db";
import { followPageLink } from "@/server/programme/responses/service";
import { notFoundResponse } from "../not-found";

export const dynamic = "force-dynamic";

/** The landing page's site button: records the click (once per visit), then goes to the destination with sid. */
export async function GET(req: Request, { params }: { params: Promise<{ code: string }> }) {
  const { code } = await params;
  const location = await followPageLink(getDb(), {
    code,
    which: "visit_site",
    userAgent: req.headers.get("user-agent"),
  });
  if (!location) return notFoundResponse();
  return new Response(null, {
    status: 302,
    headers: {
      ...SECURITY_HEADERS,
      Location: location,
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
      "X-Robots-Tag": "noindex, nofollow",
    },
  });
}
