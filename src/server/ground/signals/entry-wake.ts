import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";

type Listener = () => void;
const listeners = new Set<Listener>();

/** In-process nudge for the worker (accepted events, decided cards, resumed campaigns). */
export function onWork(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function signalWork(): void {
  for (const listener of listeners) listener();
}

/** Makes the event of an enrollment due now (a decision it was waiting for has been made). */
export async function wakeEventOfEnrollment(db: Db, enrollmentId: string, now: Date) {
  await db.$executeRaw`
    UPDATE "EntryEvent" SET "runAfter" = ${now}, "updatedAt" = now()
     WHERE id = (SELECT "entryEventId" FROM "Enrollment" WHERE id = ${enrollmentId})
       AND status IN ('waiting', 'processing', 'enrolled')`;
  signalWork();
}

/**
 * When a woken event may run: now, except that an entry the service made (going live, joining the
 * audience) that has not started yet still waits for its campaign's sendAt.
 */
const dueAt = (
  now: Date,
) => Prisma.sql`CASE WHEN "EntryEvent".status = 'accepted' AND "EntryEvent".source IN ('go_live', 'audience_join')
  THEN GREATEST(${now.toISOString()}::timestamp, COALESCE((SELECT c."sendAt" FROM "Campaign" c WHERE c.id = "EntryEvent"."campaignId"), ${now.toISOString()}::timestamp)) ELSE ${now.toISOString()}::timestamp END`;

/** Makes every waiting event of a campaign due now (it was resumed). */
export async function wakeCampaignEvents(db: Db, campaignId: string, now: Date) {
  await db.$executeRaw`
    UPDATE "EntryEvent" SET "runAfter" = ${dueAt(now)}, "updatedAt" = now()
     WHERE "campaignId" = ${campaignId} AND status IN ('accepted', 'processing', 'waiting', 'enrolled')`;
  signalWork();
}

/**
 * Makes every unfinished event of the workspace (or of the campaigns on one contract) due now:
 * the plan or the printer contract changed, and each must see it at once (skipped if mail can no
 * longer go out, giving back its reservation and expiring its review card).
 */
export async function wakeEventsAfterMailingChange(db: Db, p: { workspaceId: string; contractId?: string; now: Date }) {
  await db.$executeRaw`
    UPDATE "EntryEvent" SET "runAfter" = ${dueAt(p.now)}, "updatedAt" = now()
     WHERE "workspaceId" = ${p.workspaceId} AND status IN ('accepted', 'processing', 'waiting', 'enrolled')
       AND (${p.contractId ?? null}::text IS NULL OR "campaignId" IN (SELECT id FROM "Campaign" WHERE "fulfilmentContractId" = ${p.contractId ?? null} AND "workspaceId" = ${p.workspaceId}))`;
  signalWork();
}
