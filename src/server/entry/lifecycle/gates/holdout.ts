import { createHash } from "node:crypto";
import type { Db } from "@/server/db";

/** A uniform number in [0, 1) fixed by the campaign and the unit (account or contact). */
export function unitDraw(campaignId: string, unitId: string): number {
  return createHash("sha256").update(`${campaignId}:${unitId}`).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * Gate 4: the contact's arm. Accounts in the audience at go-live were assigned then (exact share);
 * an account that joined later is assigned once, now, with probability `holdoutShare`, and kept.
 * A contact without an account is its own unit, by the same draw (not stored: it has no account).
 */
export async function armFor(db: Db, p: { workspaceId: string; campaignId: string; accountId: string | null; contactId: string; holdoutShare: number }) {
  if (!p.accountId) return unitDraw(p.campaignId, p.contactId) < p.holdoutShare ? "holdout" : "treatment";
  const existing = await db.holdoutAssignment.findUnique({ where: { campaignId_accountId: { campaignId: p.campaignId, accountId: p.accountId } } });
  if (existing) return existing.arm;
  await db.holdoutAssignment.createMany({
    data: [{ campaignId: p.campaignId, accountId: p.accountId, workspaceId: p.workspaceId, arm: unitDraw(p.campaignId, p.accountId) < p.holdoutShare ? "holdout" : "treatment" }],
    skipDuplicates: true,
  });
  const assigned = await db.holdoutAssignment.findUniqueOrThrow({ where: { campaignId_accountId: { campaignId: p.campaignId, accountId: p.accountId } } });
  return assigned.arm;
}
