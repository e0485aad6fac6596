import { SECURITY_HEADERS } from "@/server/ground/http/security-headers";
import { getDb } from "@/server/ground/db";
import { issueFormToken } from "@/server/programme/responses/form-token";
import { resolveLink } from "@/server/programme/responses/page-model";
import { openResponseLink } from "@/server/programme/responses/service";
import { handleFormPost } from "./form-actions";
import { notFoundResponse } from "./not-found";
import { pageResponse } from "./render-page";

export const dynamic = "force-dynamic";

const redirect = (location: string) =>
  new Response(null, {
    status: 302,
    headers: {
      ...SECURITY_HEADERS,
      Location: location,
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
      "X-Robots-Tag": "noindex, nofollow",
    },
  });

/**
 * GET /r/{code}: the response link printed on a piece (and in its QR code, with ?via=qr). A
 * redirect campaign's link goes to its destination with sid; a hosted one shows the recipient's
 * page. Unknown and expired codes get the same plain 404.
 */
export async function GET(req: Request, { params }: { params: Promise<{ code: string }> }) {
  const { code } = await params;
  const url = new URL(req.url);
  const db = getDb();
  const opened = await openResponseLink(db, {
    code,
    via: url.searchParams.get("via"),
    userAgent: req.headers.get("user-agent"),
  });
  if (!opened) return notFoundResponse();
  if (opened.kind === "redirect") return redirect(opened.location);
  return pageResponse(opened.page, { token: await issueFormToken(db, code) });
}

/** HEAD answers as GET would, records nothing (link checkers and previews use it). */
export async function HEAD(_req: Request, { params }: { params: Promise<{ code: string }> }) {
  const { code } = await params;
  const target = await resolveLink(getDb(), code);
  if (!target) return new Response(null, { status: 404, headers: notFoundResponse().headers });
  if (target.kind === "redirect")
    return new Response(null, { status: 302, headers: { ...SECURITY_HEADERS, "Cache-Control": "no-store" } });
  const page = pageResponse(target.page, { token: "" });
  return new Response(null, { status: 200, headers: page.headers });
}

/** POST /r/{code}: the hosted page's forms (reply; claim or decline a gift). */
export async function POST(req: Request, { params }: { params: Promise<{ code: string }> }) {
  const { code } = await params;
  return handleFormPost(req, code);
}
