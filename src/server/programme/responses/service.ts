import type { PrismaClient } from "@/generated/prisma/client";
import { type HostedPage, resolveLink } from "./page-model";
import { recordVisits } from "./visits";

/** The destination with `sid` added to its query (an existing sid parameter is replaced). */
export function destinationWithSid(destinationUrl: string, sid: string): string {
  const url = new URL(destinationUrl);
  url.searchParams.set("sid", sid);
  return url.toString();
}

export type OpenedLink = { kind: "redirect"; location: string } | { kind: "page"; page: HostedPage };

/**
 * Follows a printed response link: the destination to redirect to (with sid), or the campaign's
 * hosted page. Records what the service saw itself: a scan (the QR code carries ?via=qr) or a
 * click (the typed or tapped link), and for a hosted page the page view, each once per visit.
 * Unknown, malformed and expired codes give null and record nothing.
 */
export async function openResponseLink(
  prisma: PrismaClient,
  p: { code: string; via: string | null; userAgent: string | null; record?: boolean; now?: Date },
): Promise<OpenedLink | null> {
  const now = p.now ?? new Date();
  const target = await resolveLink(prisma, p.code, now);
  if (!target) return null;
  const arrival = p.via === "qr" ? "scan" : "click";
  const piece = target.kind === "redirect" ? target.piece : target.page.piece;
  if (p.record !== false)
    await recordVisits(prisma, {
      piece,
      kinds: target.kind === "redirect" ? [arrival] : [arrival, "page_view"],
      userAgent: p.userAgent,
      now,
    });
  return target.kind === "redirect"
    ? { kind: "redirect", location: destinationWithSid(target.destinationUrl, piece.sid) }
    : target;
}

/**
 * A landing page's call-to-action link (the meeting link, or the destination site with sid):
 * where to send the browser, after recording the click once per visit. Null when the code has no
 * landing page with that call to action.
 */
export async function followPageLink(
  prisma: PrismaClient,
  p: { code: string; which: "meeting" | "visit_site"; userAgent: string | null; now?: Date },
): Promise<string | null> {
  const now = p.now ?? new Date();
  const target = await resolveLink(prisma, p.code, now);
  if (target?.kind !== "page" || target.page.kind !== "landing_page" || target.page.callToAction !== p.which)
    return null;
  const page = target.page;
  const location =
    p.which === "meeting"
      ? page.meetingUrl
      : page.destinationUrl
        ? destinationWithSid(page.destinationUrl, page.piece.sid)
        : null;
  if (!location) return null;
  await recordVisits(prisma, {
    piece: page.piece,
    kinds: [p.which === "meeting" ? "meeting_click" : "site_click"],
    userAgent: p.userAgent,
    now,
  });
  return location;
}
