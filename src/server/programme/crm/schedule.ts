import type { PrismaClient } from "@/generated/prisma/client";
import { startTicker } from "@/server/ground/platform/ticker";
import { startSyncIn } from "./service";

/** Connections whose scheduled sync is due, claimed per tick by one worker. */
const CLAIM_LIMIT = 20;

/**
 * Queues the scheduled syncs that are due. The due times live in the database (CrmConnection.
 * nextSyncAt) and are claimed with FOR UPDATE SKIP LOCKED, so any number of worker processes on one
 * PostgreSQL can tick at once and each due sync is queued once; a process that stops loses nothing.
 * A connection with a sync still running gets no second one; its next time moves on either way.
 */
export async function queueDueSyncs(prisma: PrismaClient, now = new Date()): Promise<string[]> {
  return prisma.$transaction(async (tx) => {
    const due = await tx.$queryRaw<{ id: string; workspaceId: string; scheduleMinutes: number }[]>`
      SELECT id, "workspaceId", "scheduleMinutes" FROM "CrmConnection"
       WHERE status = 'connected' AND "scheduleMinutes" IS NOT NULL AND "nextSyncAt" <= ${now}
       ORDER BY "nextSyncAt" LIMIT ${CLAIM_LIMIT} FOR UPDATE SKIP LOCKED`;
    const queued: string[] = [];
    for (const c of due) {
      await tx.crmConnection.update({
        where: { id: c.id },
        data: { nextSyncAt: new Date(now.getTime() + c.scheduleMinutes * 60_000) },
      });
      const started = await startSyncIn(tx, {
        workspaceId: c.workspaceId,
        connectionId: c.id,
        trigger: "schedule",
        actor: { kind: "system", id: null, label: "Schedule" },
      });
      if (!started.alreadyRunning) queued.push(started.view.syncId);
    }
    return queued;
  });
}

/** Ticks queueDueSyncs every `intervalMs` in this process (the schedule itself is in the database). */
export function startCrmScheduler(prisma: PrismaClient, options: { intervalMs?: number } = {}) {
  return startTicker("crm", () => queueDueSyncs(prisma), options.intervalMs ?? 30_000);
}
