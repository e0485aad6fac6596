/**
 * What the lifecycle worker's loop needs before it has work: claiming due events and its log. Kept
 * apart from the runner, which brings the renderer and the print vendors' clients with it, so a
 * worker that has no event to move (one running an import, say) never loads them (worker.ts).
 */
import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@/generated/prisma/client";

/** How long a claim lasts; a crashed worker's events are taken over after it. */
export const LEASE_MS = 60_000;

export const lifecycleLog = (line: string, error?: unknown) =>
  error ? console.error(`[lifecycle] ${line}`, error) : console.log(`[lifecycle] ${line}`);

/** A claimed event: its lease token (shared by the events claimed together) and how many times it was claimed. */
export interface Claim {
  id: string;
  token: string;
  attempts: number;
}

/**
 * Claims up to `limit` due events for this worker: FOR UPDATE SKIP LOCKED, so concurrent workers
 * never claim the same event, and a lease that a crashed worker leaves behind expires. The earliest
 * due are read per open status, each in the order of the (status, runAfter) index, and the earliest
 * of those taken: one scan over all four statuses had to read and sort every due event for the
 * first hundred (28 ms a claim at 50,000 accepted events, against 0.3 ms).
 */
export async function claimDueEvents(
  prisma: PrismaClient,
  p: {
    limit: number;
    now: Date;
    leaseMs?: number /** Only this workspace's events (tests; dedicated workers). */;
    workspaceId?: string;
  },
): Promise<Claim[]> {
  const token = randomUUID();
  const lease = p.leaseMs ?? LEASE_MS;
  const rows = await prisma.$queryRaw<{ id: string; attempts: number }[]>`
    UPDATE "EntryEvent"
       SET "lockToken" = ${token}, "lockedUntil" = ${new Date(p.now.getTime() + lease)}, attempts = attempts + 1,
           status = CASE WHEN status = 'accepted' THEN 'processing'::"EntryEventStatus" ELSE status END, "updatedAt" = now()
     WHERE id IN (
       SELECT due.id
         FROM unnest(ARRAY['accepted', 'processing', 'waiting', 'enrolled']::"EntryEventStatus"[]) AS open(status)
        CROSS JOIN LATERAL (
          SELECT e.id, e."runAfter" FROM "EntryEvent" e
           WHERE e.status = open.status AND e."runAfter" <= ${p.now}
             AND (${p.workspaceId ?? null}::text IS NULL OR e."workspaceId" = ${p.workspaceId ?? null})
             AND (e."lockedUntil" IS NULL OR e."lockedUntil" < ${p.now})
           ORDER BY e."runAfter"
           LIMIT ${p.limit}
           FOR UPDATE SKIP LOCKED) due
        ORDER BY due."runAfter"
        LIMIT ${p.limit})
    RETURNING id, attempts`;
  return rows.map((r) => ({ ...r, token }));
}
