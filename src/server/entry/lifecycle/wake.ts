import type { Db } from "@/server/db";

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

/** Makes every waiting event of a campaign due now (it was resumed). */
export async function wakeCampaignEvents(db: Db, campaignId: string, now: Date) {
  await db.$executeRaw`
    UPDATE "EntryEvent" SET "runAfter" = ${now}, "updatedAt" = now()
     WHERE "campaignId" = ${campaignId} AND status IN ('accepted', 'processing', 'waiting', 'enrolled')`;
  signalWork();
}
