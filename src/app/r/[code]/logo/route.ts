import { getBrandImage } from "@/server/programme/brand/service";
import { getDb } from "@/server/ground/db";
import { resolveLink } from "@/server/programme/responses/page-model";
import { notFoundResponse } from "../not-found";

export const dynamic = "force-dynamic";

/** The brand kit's logo on a hosted page: only for a code that has a page (an SVG was sanitised on upload). */
export async function GET(_req: Request, { params }: { params: Promise<{ code: string }> }) {
  const { code } = await params;
  const db = getDb();
  const target = await resolveLink(db, code);
  if (target?.kind !== "page") return notFoundResponse();
  const image = await getBrandImage(db, { workspaceId: target.page.piece.workspaceId, which: "logo" });
  if (!image) return notFoundResponse();
  return new Response(new Uint8Array(image.bytes), {
    headers: {
      "Content-Type": image.type,
      "Cache-Control": "private, max-age=3600",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox",
      "X-Content-Type-Options": "nosniff",
      "X-Frame-Options": "DENY",
      "Referrer-Policy": "no-referrer",
      "X-Robots-Tag": "noindex",
    },
  });
}
