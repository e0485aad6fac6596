import type { Db } from "@/server/ground/db";

const DAY = 24 * 60 * 60_000;

export interface FrequencyInput {
  now: Date;
  windowDays: number;
  capContact: number | null;
  capAccount: number | null;
  /** Planned or actual send times of other pieces to this contact, and to its account. */
  contactSends: Date[];
  accountSends: Date[];
}

/**
 * Whether one more send at `t` keeps "at most `cap` sends in any window of `window` ms": every
 * window [x, x + window) that contains t must hold fewer than `cap` other sends. The fullest such
 * windows start at t, at a send in (t - window, t], or just after t - window.
 */
export function fitsCap(sends: number[], cap: number | null, window: number, t: number): boolean {
  if (cap === null) return true;
  const starts = [t, t - window + 1, ...sends.filter((s) => s > t - window && s <= t)];
  return starts.every((x) => sends.filter((s) => s >= x && s < x + window).length < cap);
}

/**
 * Gate 6: the first moment at or after `now` when one more piece keeps both caps. Candidates are
 * now and the moments each existing send leaves the window; the last of those always fits.
 */
export function firstAllowedDate(input: FrequencyInput): Date {
  const window = input.windowDays * DAY;
  const contact = input.contactSends.map((d) => d.getTime());
  const account = input.accountSends.map((d) => d.getTime());
  const now = input.now.getTime();
  const candidates = [now, ...[...contact, ...account].map((s) => s + window)]
    .filter((t) => t >= now)
    .sort((a, b) => a - b);
  const t = candidates.find(
    (c) => fitsCap(contact, input.capContact, window, c) && fitsCap(account, input.capAccount, window, c),
  );
  return new Date(t ?? candidates[candidates.length - 1]);
}

/**
 * Sends that count against the caps, across the workspace's campaigns: pieces not cancelled or
 * failed (at their mailing or planned date) and treatment enrollments still waiting for their date.
 * Call inside the transaction that holds the contact's and account's row locks.
 */
export async function loadSends(
  db: Db,
  p: { workspaceId: string; contactId: string; accountId: string | null; since: Date },
) {
  const rows = await db.$queryRaw<{ at: Date; sameContact: boolean }[]>`
    SELECT COALESCE(pc."mailedAt", e."scheduledFor", pc."createdAt") AS at, (pc."contactId" = ${p.contactId}) AS "sameContact"
      FROM "MailPiece" pc
      LEFT JOIN "Contact" c ON c.id = pc."contactId"
      LEFT JOIN "Enrollment" e ON e.id = pc."enrollmentId"
     WHERE pc."workspaceId" = ${p.workspaceId} AND pc.status NOT IN ('cancelled', 'failed')
       AND (pc."contactId" = ${p.contactId} OR (${p.accountId}::text IS NOT NULL AND COALESCE(c."accountId", pc."accountId") = ${p.accountId}))
       AND COALESCE(pc."mailedAt", e."scheduledFor", pc."createdAt") > ${p.since}
    UNION ALL
    SELECT e."scheduledFor" AS at, (e."contactId" = ${p.contactId}) AS "sameContact"
      FROM "Enrollment" e
     WHERE e."workspaceId" = ${p.workspaceId} AND e.arm = 'treatment' AND e.status = 'scheduled'
       AND NOT EXISTS (SELECT 1 FROM "MailPiece" x WHERE x."enrollmentId" = e.id)
       AND (e."contactId" = ${p.contactId} OR (${p.accountId}::text IS NOT NULL AND e."accountId" = ${p.accountId}))
       AND e."scheduledFor" > ${p.since}`;
  return {
    contactSends: rows.filter((r) => r.sameContact).map((r) => r.at),
    accountSends: rows.map((r) => r.at),
  };
}
