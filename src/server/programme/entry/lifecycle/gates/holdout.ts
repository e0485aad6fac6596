import { createHash } from "node:crypto";
import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { hotSql } from "@/server/ground/platform/hot-transaction";
import { lockWorkspaceHoldouts, measuringSql } from "@/server/programme/holdouts/across";
import { PROGRAMME, programmeHeldOut } from "@/server/programme/holdouts/programme";

/** A uniform number in [0, 1) fixed by the campaign and the unit (account or contact). */
export function unitDraw(campaignId: string, unitId: string): number {
  return createHash("sha256").update(`${campaignId}:${unitId}`).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * Gate 4: the contact's arm. Accounts in the audience at go-live were assigned then (exact share);
 * an account that joined later is assigned once, now, with probability `holdoutShare`, and kept.
 * A contact without an account is its own unit, by the same draw (not stored: it has no account).
 */
export async function armFor(
  db: Db,
  p: { workspaceId: string; campaignId: string; accountId: string | null; contactId: string; holdoutShare: number },
) {
  if (!p.accountId) return unitDraw(p.campaignId, p.contactId) < p.holdoutShare ? "holdout" : "treatment";
  const existing = await db.holdoutAssignment.findUnique({
    where: { campaignId_accountId: { campaignId: p.campaignId, accountId: p.accountId } },
  });
  if (existing) return existing.arm;
  await db.holdoutAssignment.createMany({
    data: [
      {
        campaignId: p.campaignId,
        accountId: p.accountId,
        workspaceId: p.workspaceId,
        arm: unitDraw(p.campaignId, p.accountId) < p.holdoutShare ? "holdout" : "treatment",
      },
    ],
    skipDuplicates: true,
  });
  const assigned = await db.holdoutAssignment.findUniqueOrThrow({
    where: { campaignId_accountId: { campaignId: p.campaignId, accountId: p.accountId } },
  });
  return assigned.arm;
}

/**
 * armFor for many accounts new to their campaigns at once: each assigned by the same draw, in one
 * insert in a fixed order (so two workers assigning overlapping accounts wait for each other rather
 * than deadlock), then read back. Returns "campaignId:accountId" -> arm.
 */
export async function assignArms(
  db: Db,
  p: { workspaceId: string; units: { campaignId: string; accountId: string; holdoutShare: number }[] },
): Promise<Map<string, "treatment" | "holdout">> {
  const unique = [...new Map(p.units.map((u) => [`${u.campaignId}:${u.accountId}`, u])).values()].sort((a, b) =>
    `${a.campaignId}:${a.accountId}` < `${b.campaignId}:${b.accountId}` ? -1 : 1,
  );
  if (unique.length === 0) return new Map();
  const rows = unique.map((u) => ({
    c: u.campaignId,
    a: u.accountId,
    arm: unitDraw(u.campaignId, u.accountId) < u.holdoutShare ? "holdout" : "treatment",
  }));
  await db.$executeRaw`
    INSERT INTO "HoldoutAssignment" ("campaignId", "accountId", "workspaceId", arm)
    SELECT x.c, x.a, ${p.workspaceId}, x.arm::"HoldoutArm" FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(c text, a text, arm text)
    ON CONFLICT ("campaignId", "accountId") DO NOTHING`;
  const stored = await db.$queryRaw<{ campaignId: string; accountId: string; arm: "treatment" | "holdout" }[]>`
    SELECT h."campaignId", h."accountId", h.arm::text AS arm FROM "HoldoutAssignment" h
      JOIN jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(c text, a text, arm text) ON h."campaignId" = x.c AND h."accountId" = x.a`;
  return new Map(stored.map((r) => [`${r.campaignId}:${r.accountId}`, r.arm]));
}

/**
 * Gate 4 across campaigns: for each (campaign, account), what holds the account out of that
 * campaign ("campaignId:accountId" -> why): the workspace's programme holdout ("programme"), or
 * else another campaign of the workspace that holds it out while it measures (that campaign's id;
 * the earliest assigned). Takes the workspace's holdout lock (shared) first.
 */
export async function heldOutElsewhere(
  db: Db,
  p: { workspaceId: string; now: Date; units: { campaignId: string; accountId: string }[] },
): Promise<Map<string, string>> {
  if (p.units.length === 0) return new Map();
  await lockWorkspaceHoldouts(db, p.workspaceId, "shared");
  const programme = await programmeHeldOut(db, {
    workspaceId: p.workspaceId,
    accountIds: p.units.map((u) => u.accountId),
    now: p.now,
  });
  const rows = await hotSql<{ campaignId: string; accountId: string; heldOutBy: string }>(
    db,
    Prisma.sql`
    SELECT DISTINCT ON (x.c, x.a) x.c AS "campaignId", x.a AS "accountId", h."campaignId" AS "heldOutBy"
      FROM jsonb_to_recordset(${JSON.stringify(p.units.map((u) => ({ c: u.campaignId, a: u.accountId })))}::jsonb) AS x(c text, a text)
      JOIN "HoldoutAssignment" h ON h."accountId" = x.a AND h."campaignId" <> x.c AND h.arm = 'holdout' AND h."workspaceId" = ${p.workspaceId}
      JOIN "Campaign" k ON k.id = h."campaignId"
     WHERE ${measuringSql(p.now)}
     ORDER BY x.c, x.a, h."assignedAt", h."campaignId"`,
  );
  const out = new Map(rows.map((r) => [`${r.campaignId}:${r.accountId}`, r.heldOutBy]));
  for (const u of p.units) if (programme.has(u.accountId)) out.set(`${u.campaignId}:${u.accountId}`, PROGRAMME);
  return out;
}
