import { createHash } from "node:crypto";
import type { Db } from "@/server/ground/db";
import { accountsTakenElsewhere, lockWorkspaceHoldouts } from "./across";
import { programmeHeldOut } from "./programme";

function rank(seed: string, accountId: string): string {
  return createHash("sha256").update(`${seed}:${accountId}`).digest("hex");
}

/**
 * Which accounts are held out: the accounts are put in a pseudo-random order fixed by the seed
 * (the campaign id) and the first round(share x n) are the holdout arm. Exact share, reproducible,
 * and independent of the order the accounts were read in.
 */
export function chooseHoldoutAccounts(
  accountIds: string[],
  share: number,
  seed: string,
  unavailable: Set<string> = new Set(),
): Set<string> {
  const unique = [...new Set(accountIds)];
  const ordered = unique.sort((a, b) => (rank(seed, a) < rank(seed, b) ? -1 : 1));
  // Accounts taken by other campaigns are never drawn: the holdout is drawn from the others, so it
  // stays a random share of the accounts this campaign can compare (fewer when too few remain).
  return new Set(ordered.filter((a) => !unavailable.has(a)).slice(0, Math.round(share * unique.length)));
}

/**
 * Freezes the account-level arms of a campaign from the accounts in its audience. Called once,
 * when the campaign goes live; a second call adds nothing and changes nothing.
 */
export async function freezeHoldoutArms(
  db: Db,
  params: { workspaceId: string; campaignId: string; audienceId: string; holdoutShare: number; now?: Date },
) {
  const members = await db.audienceMember.findMany({
    where: { audienceId: params.audienceId, workspaceId: params.workspaceId, contact: { accountId: { not: null } } },
    select: { contact: { select: { accountId: true } } },
  });
  const accountIds = members.map((m) => m.contact.accountId!);
  // Exclusive against the workspace's admissions and other go-lives (see lockWorkspaceHoldouts).
  await lockWorkspaceHoldouts(db, params.workspaceId, "exclusive");
  const taken = await accountsTakenElsewhere(db, {
    workspaceId: params.workspaceId,
    campaignId: params.campaignId,
    accountIds: [...new Set(accountIds)],
    now: params.now ?? new Date(),
  });
  // The programme holdout's accounts are mailed by no campaign: never this one's to compare.
  const programme = await programmeHeldOut(db, {
    workspaceId: params.workspaceId,
    accountIds: [...new Set(accountIds)],
    now: params.now ?? new Date(),
  });
  const holdout = chooseHoldoutAccounts(
    accountIds,
    params.holdoutShare,
    params.campaignId,
    new Set([...taken.heldOut, ...taken.mailed, ...programme]),
  );
  await db.holdoutAssignment.createMany({
    data: [...new Set(accountIds)].map((accountId) => ({
      campaignId: params.campaignId,
      workspaceId: params.workspaceId,
      accountId,
      arm: holdout.has(accountId) ? ("holdout" as const) : ("treatment" as const),
    })),
    skipDuplicates: true,
  });
  return {
    accounts: new Set(accountIds).size,
    heldOut: holdout.size,
    /** Accounts another measuring campaign holds out: entered here, they are held out because of it (heldOutBy). */
    heldOutByOthers: taken.heldOut.size,
    /** Accounts the workspace's programme holdout holds out: entered here, they are held out because of it. */
    heldOutByProgramme: programme.size,
  };
}
