import { createHash } from "node:crypto";
import type { Db } from "@/server/ground/db";

/**
 * A demo campaign's account-level arms, the same on every install: the product draws them from the
 * campaign's random id (holdouts/assignment.ts), which would give each install, and each run of the
 * end-to-end suite, another demo. Here the audience's accounts are ranked by a hash of the campaign's
 * and the account's names, and the first `holdoutShare` of them are held out. Once per campaign.
 */
export async function freezeDemoArms(
  db: Db,
  p: { workspaceId: string; campaignId: string; campaignName: string; audienceId: string; holdoutShare: number },
) {
  const members = await db.audienceMember.findMany({
    where: { audienceId: p.audienceId, workspaceId: p.workspaceId, contact: { accountId: { not: null } } },
    select: { contact: { select: { account: { select: { id: true, name: true } } } } },
  });
  const accounts = [...new Map(members.map((m) => [m.contact.account!.id, m.contact.account!.name])).entries()];
  const rank = (name: string) => createHash("sha256").update(`${p.campaignName}\u0000${name}`).digest("hex");
  accounts.sort((a, b) => (rank(a[1]) < rank(b[1]) ? -1 : 1));
  const held = new Set(accounts.slice(0, Math.round(p.holdoutShare * accounts.length)).map(([id]) => id));
  await db.holdoutAssignment.createMany({
    data: accounts.map(([accountId]) => ({
      campaignId: p.campaignId,
      workspaceId: p.workspaceId,
      accountId,
      arm: held.has(accountId) ? ("holdout" as const) : ("treatment" as const),
    })),
    skipDuplicates: true,
  });
}
