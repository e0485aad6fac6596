import type { PrismaClient } from "@/generated/prisma/client";
import type { TResponseKind } from "./kinds";

/** Loads of a page (or clicks of one of its links) within this long of the last recorded one are the same visit. */
export const VISIT_WINDOW_MS = 30 * 60_000;

/**
 * Link previews and mail scanners that say what they are (a claim link pasted into Slack or an
 * email is fetched by them before any person opens it): their requests are answered but not counted.
 */
const AUTOMATED_AGENT =
  /\+https?:\/\/|bot\/|slackbot|crawler|spider|facebookexternalhit|whatsapp\/|skypeuripreview|microsoft office|ms-office|googleimageproxy|headlesschrome/i;

export function isAutomatedAgent(userAgent: string | null): boolean {
  return !!userAgent && AUTOMATED_AGENT.test(userAgent);
}

export interface VisitedPiece {
  id: string;
  workspaceId: string;
  campaignId: string;
}

/**
 * Records visit-like observations (the printed link scanned or clicked, the hosted page viewed,
 * its meeting or site link clicked), each once per visit: nothing when the same piece has one of
 * that kind within the last 30 minutes. An advisory lock per piece and kind makes two requests at
 * the same moment count once. Returns the kinds recorded.
 */
export async function recordVisits(
  prisma: PrismaClient,
  p: { piece: VisitedPiece; kinds: TResponseKind[]; userAgent: string | null; now?: Date },
): Promise<TResponseKind[]> {
  if (p.kinds.length === 0 || isAutomatedAgent(p.userAgent)) return [];
  const now = p.now ?? new Date();
  return prisma.$transaction(async (tx) => {
    const recorded: TResponseKind[] = [];
    for (const kind of p.kinds) {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`visit:${p.piece.id}:${kind}`}))`;
      const recent = await tx.responseEvent.findFirst({
        where: { pieceId: p.piece.id, kind, occurredAt: { gt: new Date(now.getTime() - VISIT_WINDOW_MS), lte: now } },
        select: { id: true },
      });
      if (recent) continue;
      await tx.responseEvent.create({
        data: {
          workspaceId: p.piece.workspaceId,
          campaignId: p.piece.campaignId,
          pieceId: p.piece.id,
          kind,
          occurredAt: now,
          userAgent: p.userAgent?.slice(0, 500) ?? null,
        },
      });
      recorded.push(kind);
    }
    return recorded;
  });
}
