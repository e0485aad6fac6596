import { createHash } from "node:crypto";
import { z } from "zod";
import { Prisma, type PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { hotSql } from "@/server/ground/platform/hot-transaction";
import { lockWorkspaceHoldouts } from "./across";
import { ATTRIBUTION_WINDOW_DAYS } from "./window";

/** What an enrollment held out by the programme holdout records as heldOutBy (otherwise a campaign's id). */
export const PROGRAMME = "programme";
export const MAX_PROGRAMME_HOLDOUT_SHARE = 0.5;

export const ZProgrammeHoldoutShare = z
  .number({ error: "share must be a number from 0 to 0.5." })
  .min(0, "share must be from 0 to 0.5 (0 holds out no account).")
  .max(MAX_PROGRAMME_HOLDOUT_SHARE, "share must be from 0 to 0.5: at most half the accounts can be held out.");

/** A uniform number in [0, 1) fixed by the workspace and the account: the account's programme draw. */
export function programmeDraw(workspaceId: string, accountId: string): number {
  return createHash("sha256").update(`programme:${workspaceId}:${accountId}`).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * Sets the share of accounts the workspace holds out of every campaign. Accounts already drawn keep
 * their place (a held-out account is never mailed later, and none already mailed joins the
 * holdout); accounts drawn from now on are held out with this probability. 0 holds out none.
 */
export async function setProgrammeHoldout(
  prisma: PrismaClient,
  p: { workspaceId: string; share: number; actor: Actor },
) {
  const share = ZProgrammeHoldoutShare.parse(p.share);
  return prisma.$transaction(async (tx) => {
    const before = await tx.workspace.findUniqueOrThrow({ where: { id: p.workspaceId } });
    // Exclusive against admissions and go-lives: each sees the share before or after, never half.
    await lockWorkspaceHoldouts(tx, p.workspaceId, "exclusive");
    await tx.workspace.update({ where: { id: p.workspaceId }, data: { programmeHoldoutShare: share } });
    await recordAudit(tx, p.workspaceId, p.actor, "workspace.programme_holdout_set", undefined, {
      from: before.programmeHoldoutShare,
      to: share,
    });
    return { programmeHoldoutShare: share };
  });
}

/**
 * The accounts of `accountIds` the programme holdout holds out, drawing (once, stored) those not
 * drawn before when the workspace holds out a share. An account another campaign mailed within the
 * outcome window is drawn into the mailed side: holding it out would compare mail with mail. Call
 * under the workspace's holdout lock (shared or exclusive). Empty while the share is 0. With
 * `preview`, nothing is stored: the accounts not drawn yet are those the draw would hold out now.
 */
export async function programmeHeldOut(
  db: Db,
  p: { workspaceId: string; accountIds: string[]; now: Date; preview?: boolean },
): Promise<Set<string>> {
  const ids = [...new Set(p.accountIds)].sort();
  if (ids.length === 0) return new Set();
  const ws = await db.workspace.findUniqueOrThrow({
    where: { id: p.workspaceId },
    select: { programmeHoldoutShare: true },
  });
  const share = ws.programmeHoldoutShare;
  if (share <= 0) return new Set();
  const since = new Date(p.now.getTime() - ATTRIBUTION_WINDOW_DAYS * 86_400_000);
  const known = await hotSql<{ accountId: string; arm: "treatment" | "holdout" }>(
    db,
    Prisma.sql`SELECT "accountId", arm::text AS arm FROM "ProgrammeHoldout" WHERE "workspaceId" = ${p.workspaceId} AND "accountId" = ANY(${ids}::text[])`,
  );
  const drawn = new Map(known.map((k) => [k.accountId, k.arm]));
  const fresh = ids.filter((a) => !drawn.has(a));
  if (fresh.length) {
    const mailed = await hotSql<{ accountId: string }>(
      db,
      Prisma.sql`SELECT DISTINCT e."accountId" FROM "Enrollment" e
        WHERE e."workspaceId" = ${p.workspaceId} AND e.arm = 'treatment' AND e."heldOutBy" IS NULL AND e.status <> 'cancelled'
          AND e."createdAt" > ${since} AND e."accountId" = ANY(${fresh}::text[])`,
    );
    const wasMailed = new Set(mailed.map((m) => m.accountId));
    const rows = fresh.map((a) => ({
      a,
      arm: !wasMailed.has(a) && programmeDraw(p.workspaceId, a) < share ? "holdout" : "treatment",
    }));
    if (p.preview) {
      for (const r of rows) drawn.set(r.a, r.arm as "treatment" | "holdout");
      return new Set([...drawn].filter(([, arm]) => arm === "holdout").map(([a]) => a));
    }
    // Sorted, and ON CONFLICT: two workers drawing one account store one draw, and both read it back.
    await db.$executeRaw`
      INSERT INTO "ProgrammeHoldout" ("workspaceId", "accountId", arm)
      SELECT ${p.workspaceId}, x.a, x.arm::"HoldoutArm" FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(a text, arm text)
      ON CONFLICT ("workspaceId", "accountId") DO NOTHING`;
    const stored = await hotSql<{ accountId: string; arm: "treatment" | "holdout" }>(
      db,
      Prisma.sql`SELECT "accountId", arm::text AS arm FROM "ProgrammeHoldout" WHERE "workspaceId" = ${p.workspaceId} AND "accountId" = ANY(${fresh}::text[])`,
    );
    for (const s of stored) drawn.set(s.accountId, s.arm);
  }
  return new Set([...drawn].filter(([, arm]) => arm === "holdout").map(([a]) => a));
}
