import type { Db } from "@/server/db";

/**
 * Gate 8: holds the piece's cost against the campaign's headroom in one conditional update, so
 * any number of workers can never hold more than the budget. At most one reservation per
 * enrollment (unique). Returns false when there is no headroom.
 */
export async function reserveBudget(db: Db, p: { workspaceId: string; campaignId: string; enrollmentId: string; amountCents: number }): Promise<boolean> {
  const updated = await db.$executeRaw`
    UPDATE "Campaign" SET "reservedCents" = "reservedCents" + ${p.amountCents}, "updatedAt" = now()
     WHERE id = ${p.campaignId} AND "workspaceId" = ${p.workspaceId}
       AND "budgetCents" - "spentCents" - "reservedCents" >= ${p.amountCents}`;
  if (updated !== 1) return false;
  await db.budgetReservation.create({ data: { workspaceId: p.workspaceId, campaignId: p.campaignId, enrollmentId: p.enrollmentId, amountCents: p.amountCents } });
  return true;
}

/** Turns a held reservation into spend when its piece is mailed. */
export async function chargeReservation(db: Db, p: { enrollmentId: string; now: Date }) {
  const reservation = await db.budgetReservation.findUnique({ where: { enrollmentId: p.enrollmentId } });
  if (!reservation || reservation.status !== "held") return;
  await db.budgetReservation.update({ where: { id: reservation.id }, data: { status: "charged", chargedAt: p.now } });
  await db.$executeRaw`
    UPDATE "Campaign" SET "reservedCents" = "reservedCents" - ${reservation.amountCents}, "spentCents" = "spentCents" + ${reservation.amountCents}, "updatedAt" = now()
     WHERE id = ${reservation.campaignId}`;
}

/** Gives a held reservation back to the campaign's headroom. */
export async function releaseReservation(db: Db, p: { enrollmentId: string; now: Date }) {
  const reservation = await db.budgetReservation.findUnique({ where: { enrollmentId: p.enrollmentId } });
  if (!reservation || reservation.status !== "held") return;
  await db.budgetReservation.update({ where: { id: reservation.id }, data: { status: "released", releasedAt: p.now } });
  await db.$executeRaw`
    UPDATE "Campaign" SET "reservedCents" = "reservedCents" - ${reservation.amountCents}, "updatedAt" = now() WHERE id = ${reservation.campaignId}`;
}
