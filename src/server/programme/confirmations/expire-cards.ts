import type { PrismaClient } from "@/generated/prisma/client";

/**
 * Marks pending cards past their time as expired and lets their subjects know (run by the worker
 * every 30 s). What a card's expiry does to its subject (the executors, with the campaigns and
 * print vendors behind them) is loaded only when a card is due, so a worker that never sees one
 * does not carry them.
 */
export async function expireCards(prisma: PrismaClient, now = new Date()) {
  const due = await prisma.confirmationCard.findMany({
    where: { status: "pending", expiresAt: { lte: now } },
    select: { id: true },
  });
  if (due.length === 0) return 0;
  const { cardExecutors } = await import("./executors");
  for (const { id } of due) {
    await prisma.$transaction(async (tx) => {
      const card = await tx.confirmationCard.findUniqueOrThrow({ where: { id } });
      const updated = await tx.confirmationCard.updateMany({
        where: { id, status: "pending" },
        data: { status: "expired", decidedAt: now },
      });
      if (updated.count === 1) await cardExecutors[card.kind]?.(tx, card, "decline", now);
    });
  }
  return due.length;
}
