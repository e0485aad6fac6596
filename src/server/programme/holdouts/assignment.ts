import { createHash } from "node:crypto";
import type { Db } from "@/server/ground/db";

function rank(seed: string, accountId: string): string {
  return createHash("sha256").update(`${seed}:${accountId}`).digest("hex");
}

/**
 * Which accounts are held out: the accounts are put in a pseudo-random order fixed by the seed
 * (the campaign id) and the first round(share x n) are the holdout arm. Exact share, reproducible,
 * and independent of the order the accounts were read in.
 */
export function chooseHoldoutAccounts(accountIds: string[], share: number, seed: string): Set<string> {
  const unique = [...new Set(accountIds)];
  const ordered = unique.sort((a, b) => (rank(seed, a) < rank(seed, b) ? -1 : 1));
  return new Set(ordered.slice(0, Math.round(share * unique.length)));
}

/**
 * Freezes the account-level arms of a campaign from the accounts in its audience. Called once,
 * when the campaign goes live; a second call adds nothing and changes nothing.
 */
export async function freezeHoldoutArms(
  db: Db,
  params: { workspaceId: string; campaignId: string; audienceId: string; holdoutShare: number },
) {
  const members = await db.audienceMember.findMany({
    where: { audienceId: params.audienceId, workspaceId: params.workspaceId, contact: { accountId: { not: null } } },
    select: { contact: { select: { accountId: true } } },
  });
  const accountIds = members.map((m) => m.contact.accountId!);
  const holdout = chooseHoldoutAccounts(accountIds, params.holdoutShare, params.campaignId);
  await db.holdoutAssignment.createMany({
    data: [...new Set(accountIds)].map((accountId) => ({
      campaignId: params.campaignId,
      workspaceId: params.workspaceId,
      accountId,
      arm: holdout.has(accountId) ? ("holdout" as const) : ("treatment" as const),
    })),
    skipDuplicates: true,
  });
  return { accounts: new Set(accountIds).size, heldOut: holdout.size };
}
