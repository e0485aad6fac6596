import type { Db } from "@/server/db";
import { RESPONSE_CODE_PATTERN } from "@/server/fulfilment/identifiers";

/** The destination with `sid` added to its query (an existing sid parameter is replaced). */
export function destinationWithSid(destinationUrl: string, sid: string): string {
  const url = new URL(destinationUrl);
  url.searchParams.set("sid", sid);
  return url.toString();
}

/**
 * Follows a printed response link: the destination to redirect to, after recording a scan (the QR
 * code carries ?via=qr) or a click (the typed or tapped link) that the service saw itself.
 * Unknown and malformed codes give null, and record nothing.
 */
export async function followResponseLink(db: Db, p: { code: string; via: string | null; userAgent: string | null; now?: Date }): Promise<string | null> {
  if (!RESPONSE_CODE_PATTERN.test(p.code)) return null;
  const piece = await db.mailPiece.findUnique({
    where: { responseCode: p.code },
    select: { id: true, sid: true, workspaceId: true, campaignId: true, status: true, campaign: { select: { destinationUrl: true } } },
  });
  if (!piece?.campaign.destinationUrl || piece.status === "cancelled") return null;
  await db.responseEvent.create({
    data: {
      workspaceId: piece.workspaceId,
      campaignId: piece.campaignId,
      pieceId: piece.id,
      kind: p.via === "qr" ? "scan" : "click",
      occurredAt: p.now ?? new Date(),
      userAgent: p.userAgent?.slice(0, 500) ?? null,
    },
  });
  return destinationWithSid(piece.campaign.destinationUrl, piece.sid);
}
