import type { JobRun } from "@/server/records/jobs/handler";
import { sqlState } from "@/server/ground/platform/database-errors";
import { CRM_OBJECT_TYPES, type CrmAdapter } from "./adapter";
import type { TRecordType } from "./deletions";

/** The phases a CRM sync goes through, where it resumes, and the helpers of its loop (crm/job.ts). */

/** Issues kept per sync (all are counted). */
export const MAX_KEPT_ISSUES = 2000;
/** Re-read a little before the last watermark: a CRM's search index can lag behind its writes. */
export const WATERMARK_OVERLAP_MS = 2 * 60_000;
/** Tries of one request the CRM answers 429, and the longest wait honoured. */
export const MAX_RATE_LIMIT_TRIES = 8;
export const MAX_WAIT_MS = 120_000;

export type Phase = TRecordType | "converted" | "lists" | "deleted" | "done";
// Salesforce Leads (when synced) before contacts: a converted lead's contact is its Contact's before the Contact is read.
export const PHASES: Phase[] = ["companies", "converted", "leads", "contacts", "lists", "deals", "deleted", "done"];

/** Where a sync resumes: saved as JSON with each page, in the page's transaction (a type, not an interface, for Prisma's JSON input). */
export type Cursor = {
  phase: Phase;
  /** The vendor's cursor within the phase (HubSpot `after`, Salesforce query locator). */
  page: string | null;
  /** In the lists phase, the list; in the deleted phase, the object type (CRM_OBJECT_TYPES). */
  listIndex: number;
  /** Per type, the newest last-modified time read so far by this sync. */
  seen: Partial<Record<TRecordType, string>>;
  done: number;
  total: number | null;
};

/** The credentials cannot read the CRM's lists (a permission, not the credentials themselves): the sync goes on without them. */
export class ListsUnreadable extends Error {}
/** The Run As user cannot read Salesforce Leads: leads are switched off and the sync goes on without them. */
export class LeadsUnreadable extends Error {}

/** A value or constraint the database refused (SQLSTATE class 22 or 23, or Prisma's value and unique errors). */
export function isDataError(error: unknown): boolean {
  const state = sqlState(error);
  const code = (error as { code?: unknown } | null)?.code;
  return Boolean(
    (state && /^(22|23|54)/.test(state)) ||
      (typeof code === "string" && ["P2000", "P2002", "P2007", "P2020", "P2033"].includes(code)),
  );
}

export const nextPhase = (p: Phase): Phase => PHASES[PHASES.indexOf(p) + 1] ?? "done";

export async function estimateTotal(
  adapter: CrmAdapter,
  since: (t: TRecordType) => Date | null,
  leads: boolean,
): Promise<number | null> {
  let total = 0;
  for (const type of CRM_OBJECT_TYPES) {
    const n = await adapter.count(type, since(type));
    if (n === null) return null;
    total += n;
  }
  return leads && adapter.leads ? total + ((await adapter.leads.count(since("leads"))) ?? 0) : total;
}

/** Waits `ms`, renewing the lease (and noticing a cancel) at least every 15 s. */
export async function wait(run: JobRun<unknown>, cursor: Cursor, ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    await run.progress(cursor.done, cursor.total);
    await new Promise((r) => setTimeout(r, Math.min(15_000, until - Date.now())));
  }
}
