import { Prisma } from "@/generated/prisma/client";
import { hotSql } from "@/server/ground/platform/hot-transaction";
import type { Db } from "@/server/ground/db";

/**
 * Gate 8: holds the piece's cost against the campaign's headroom in one conditional update, so
 * any number of workers can never hold more than the budget. At most one reservation per
 * enrollment (unique). Returns false when there is no headroom.
 */
export async function reserveBudget(
  db: Db,
  p: { workspaceId: string; campaignId: string; enrollmentId: string; amountCents: number },
): Promise<boolean> {
  const updated = await db.$executeRaw`
    UPDATE "Campaign" SET "reservedCents" = "reservedCents" + ${p.amountCents}, "updatedAt" = now()
     WHERE id = ${p.campaignId} AND "workspaceId" = ${p.workspaceId}
       AND "budgetCents" - "spentCents" - "reservedCents" >= ${p.amountCents}`;
  if (updated !== 1) return false;
  await db.budgetReservation.create({
    data: {
      workspaceId: p.workspaceId,
      campaignId: p.campaignId,
      enrollmentId: p.enrollmentId,
      amountCents: p.amountCents,
    },
  });
  return true;
}

/** Turns a held reservation into spend when its piece is mailed. */
export async function chargeReservation(db: Db, p: { enrollmentId: string; now: Date }) {
  const reservation = await db.budgetReservation.findUnique({ where: { enrollmentId: p.enrollmentId } });
  if (reservation?.status !== "held") return;
  await db.budgetReservation.update({ where: { id: reservation.id }, data: { status: "charged", chargedAt: p.now } });
  await db.$executeRaw`
    UPDATE "Campaign" SET "reservedCents" = "reservedCents" - ${reservation.amountCents}, "spentCents" = "spentCents" + ${reservation.amountCents}, "updatedAt" = now()
     WHERE id = ${reservation.campaignId}`;
}

/** Gives a held reservation back to the campaign's headroom. */
export async function releaseReservation(db: Db, p: { enrollmentId: string; now: Date }) {
  const reservation = await db.budgetReservation.findUnique({ where: { enrollmentId: p.enrollmentId } });
  if (reservation?.status !== "held") return;
  await db.budgetReservation.update({ where: { id: reservation.id }, data: { status: "released", releasedAt: p.now } });
  await db.$executeRaw`
    UPDATE "Campaign" SET "reservedCents" = "reservedCents" - ${reservation.amountCents}, "updatedAt" = now() WHERE id = ${reservation.campaignId}`;
}

/**
 * Gate 8 for a batch of one campaign's pieces of one price: holds as many as the headroom allows,
 * in the order given, with one conditional update of the campaign row. The row is locked once per
 * batch rather than once per piece, so workers reserving for the same campaign take turns per
 * batch and can never hold more than the budget together. The lock is FOR NO KEY UPDATE (what an
 * UPDATE takes anyway): the foreign-key checks of other workers' enrollments and pieces, which
 * take FOR KEY SHARE on the same row, do not wait for it. Returns the enrollments that got their hold.
 */
export async function reserveBudgets(
  db: Db,
  p: { workspaceId: string; campaignId: string; amountCents: number; enrollmentIds: string[] },
): Promise<Set<string>> {
  if (p.enrollmentIds.length === 0) return new Set();
  let granted = p.enrollmentIds.length;
  if (p.amountCents > 0) {
    const [row] = await hotSql<{ granted: number }>(
      db,
      Prisma.sql`
      WITH c AS (
        SELECT id, LEAST(${p.enrollmentIds.length}::int, GREATEST(0, "budgetCents" - "spentCents" - "reservedCents") / ${p.amountCents}::int) AS n
          FROM "Campaign" WHERE id = ${p.campaignId} AND "workspaceId" = ${p.workspaceId} FOR NO KEY UPDATE)
      UPDATE "Campaign" k SET "reservedCents" = k."reservedCents" + c.n * ${p.amountCents}::int, "updatedAt" = now()
        FROM c WHERE k.id = c.id
      RETURNING c.n::int AS granted`,
    );
    granted = row?.granted ?? 0;
  }
  const held = p.enrollmentIds.slice(0, granted);
  if (held.length) {
    // One statement for the whole batch (Prisma's createMany spent about 20 ms of CPU on 100 rows).
    await hotSql(
      db,
      Prisma.sql`
      INSERT INTO "BudgetReservation" ("workspaceId", "campaignId", "enrollmentId", "amountCents", "createdAt")
      SELECT ${p.workspaceId}, ${p.campaignId}, e, ${p.amountCents}::int, timezone('UTC', now()) FROM unnest(${held}::text[]) AS e`,
    );
  }
  return new Set(held);
}

/** Turns the held reservations of mailed pieces into spend: one statement for a whole batch, per campaign. */
export async function chargeReservations(db: Db, p: { enrollmentIds: string[]; now: Date }) {
  if (p.enrollmentIds.length === 0) return;
  await hotSql(
    db,
    Prisma.sql`
    WITH charged AS (
      UPDATE "BudgetReservation" SET status = 'charged', "chargedAt" = ${p.now}
       WHERE "enrollmentId" = ANY(${p.enrollmentIds}::text[]) AND status = 'held'
      RETURNING "campaignId", "amountCents"),
    totals AS (SELECT "campaignId", sum("amountCents")::int AS total FROM charged GROUP BY 1)
    UPDATE "Campaign" c SET "reservedCents" = c."reservedCents" - t.total, "spentCents" = c."spentCents" + t.total, "updatedAt" = now()
      FROM totals t WHERE c.id = t."campaignId"`,
  );
}
