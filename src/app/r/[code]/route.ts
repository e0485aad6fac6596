import { getDb } from "@/server/db";
import { followResponseLink } from "@/server/responses/service";

export const dynamic = "force-dynamic";

const notFound = () =>
  new Response("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not found</title></head><body><h1>Not found</h1><p>This link does not lead anywhere.</p></body></html>", {
    status: 404,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
  });

/** GET /r/{code}: the response link printed on a piece (and in its QR code, with ?via=qr). */
export async function GET(req: Request, { params }: { params: Promise<{ code: string }> }) {
  const { code } = await params;
  const url = new URL(req.url);
  const destination = await followResponseLink(getDb(), { code, via: url.searchParams.get("via"), userAgent: req.headers.get("user-agent") });
  if (!destination) return notFound();
  return new Response(null, { status: 302, headers: { Location: destination, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
}
