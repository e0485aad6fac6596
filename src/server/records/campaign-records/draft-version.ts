import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";

/**
 * Something a draft campaign will print changed (its own copy, a recipient's draft, its design, the
 * brand kit): each named campaign that is still a draft gets a new draft version, and its pending
 * go-live card expires, because the card described the campaign as it was. Callers run this inside
 * the transaction of their write. The campaigns' rows are locked in id order (the lock that going
 * live takes too), so an edit and a decision on the card run one after the other: the edit lands
 * first and voids the card, or the campaign is live and the caller sees it.
 *
 * Returns the locked campaigns with their status, so a caller can refuse when one is no longer a draft.
 */
export async function noteDraftChange(
  tx: Db,
  p: { workspaceId: string; where: Prisma.CampaignWhereInput; now?: Date },
) {
  const ids = (
    await tx.campaign.findMany({
      where: { ...p.where, workspaceId: p.workspaceId },
      select: { id: true },
      orderBy: { id: "asc" },
    })
  ).map((c) => c.id);
  if (ids.length === 0) return [];
  // FOR UPDATE in id order: two writers touching overlapping campaigns never deadlock.
  const locked = await tx.$queryRaw<{ id: string; name: string; status: string }[]>`
    SELECT id, name, status::text AS status FROM "Campaign"
     WHERE "workspaceId" = ${p.workspaceId} AND id = ANY(${ids}::text[])
     ORDER BY id FOR UPDATE`;
  const drafts = locked.filter((c) => c.status === "draft").map((c) => c.id);
  if (drafts.length) {
    // Only the version: updatedAt stays the time of the campaign's own last edit (drafts rendered
    // before that are out of date; a new version alone does not make them so).
    await tx.$executeRaw`UPDATE "Campaign" SET "draftVersion" = "draftVersion" + 1 WHERE "workspaceId" = ${p.workspaceId} AND id = ANY(${drafts}::text[]) AND status = 'draft'`;
    await tx.confirmationCard.updateMany({
      where: { workspaceId: p.workspaceId, campaignId: { in: drafts }, kind: "go_live", status: "pending" },
      data: { status: "expired", decidedAt: p.now ?? new Date() },
    });
  }
  return locked;
}
