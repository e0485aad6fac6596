import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { hotSql } from "@/server/ground/platform/hot-transaction";
import { ATTRIBUTION_WINDOW_DAYS } from "./window";

/**
 * The workspace's holdout lock: admissions take it shared (many at once), a campaign going live
 * takes it exclusive while it draws its holdout. So a go-live sees every enrollment committed
 * before it, and an admission every holdout committed before it: two campaigns going live at the
 * same moment never both mail an account one of them holds out.
 */
export async function lockWorkspaceHoldouts(db: Db, workspaceId: string, mode: "shared" | "exclusive") {
  const key = `holdouts:${workspaceId}`;
  if (mode === "shared")
    await hotSql(db, Prisma.sql`SELECT pg_advisory_xact_lock_shared(hashtext(${key}))::text AS locked`);
  else await hotSql(db, Prisma.sql`SELECT pg_advisory_xact_lock(hashtext(${key}))::text AS locked`);
}

/** Whether a campaign still measures: live or paused, or ended within its outcome window. */
export const measuringSql = (now: Date) =>
  Prisma.sql`(k.status IN ('live', 'paused') OR (k.status = 'ended' AND k."endedAt" > ${new Date(now.getTime() - ATTRIBUTION_WINDOW_DAYS * 86_400_000)}))`;

/**
 * Accounts of the audience a campaign going live must not draw into its holdout: those another
 * measuring campaign of the workspace holds out (they are that campaign's), and those another
 * campaign entered in its treatment arm within the outcome window (mailed, or on their way: a
 * holdout of them would compare mailed accounts with mailed accounts). Call after taking the
 * workspace's holdout lock (exclusive).
 */
export async function accountsTakenElsewhere(
  db: Db,
  p: { workspaceId: string; campaignId: string; accountIds: string[]; now: Date },
): Promise<{ heldOut: Set<string>; mailed: Set<string> }> {
  if (p.accountIds.length === 0) return { heldOut: new Set(), mailed: new Set() };
  const since = new Date(p.now.getTime() - ATTRIBUTION_WINDOW_DAYS * 86_400_000);
  const rows = await hotSql<{ accountId: string; why: "held_out" | "mailed" }>(
    db,
    Prisma.sql`
    SELECT DISTINCT h."accountId", 'held_out' AS why FROM "HoldoutAssignment" h JOIN "Campaign" k ON k.id = h."campaignId"
     WHERE h."workspaceId" = ${p.workspaceId} AND h."campaignId" <> ${p.campaignId} AND h.arm = 'holdout'
       AND h."accountId" = ANY(${p.accountIds}::text[]) AND ${measuringSql(p.now)}
    UNION
    SELECT DISTINCT e."accountId", 'mailed' AS why FROM "Enrollment" e
     WHERE e."workspaceId" = ${p.workspaceId} AND e."campaignId" <> ${p.campaignId} AND e.arm = 'treatment'
       AND e.status <> 'cancelled' AND e."createdAt" > ${since} AND e."accountId" = ANY(${p.accountIds}::text[])`,
  );
  return {
    heldOut: new Set(rows.filter((r) => r.why === "held_out").map((r) => r.accountId)),
    mailed: new Set(rows.filter((r) => r.why === "mailed").map((r) => r.accountId)),
  };
}
