import { hash } from "node:crypto";

/**
 * De-duplication of contacts, the same within a file and against the workspace: a person is
 * found by email (case-insensitive), else by CRM id, else by name and address. Name and address
 * only match when the two records do not disagree: a record with another email or another CRM id
 * at the same name and address is someone else's record, not this one.
 */

export interface MatchFields {
  /** Lower-cased email, or null. */
  email: string | null;
  crmId: string | null;
  /** contactKeys().matchKey: normalised name and address, or null. */
  matchKey: string | null;
}

const compatible = (a: MatchFields, b: MatchFields) => (!a.email || !b.email) && (!a.crmId || !b.crmId);

/** Finds, among `candidates`, the record `row` is the same person as (email, then CRM id, then name and address). */
export function findMatch<T extends MatchFields>(row: MatchFields, index: MatchIndex<T>): T | null {
  if (row.email) {
    const hit = index.byEmail.get(row.email);
    if (hit) return hit;
  }
  if (row.crmId) {
    const hit = index.byCrmId.get(row.crmId);
    if (hit) return hit;
  }
  if (row.matchKey) {
    for (const hit of index.byMatchKey.get(row.matchKey) ?? []) if (compatible(row, hit)) return hit;
  }
  return null;
}

/** Records by each key, in the order they were added (the first record of a key wins). */
export class MatchIndex<T extends MatchFields> {
  readonly byEmail = new Map<string, T>();
  readonly byCrmId = new Map<string, T>();
  readonly byMatchKey = new Map<string, T[]>();

  constructor(records: Iterable<T> = []) {
    for (const r of records) this.add(r);
  }

  add(record: T): void {
    if (record.email && !this.byEmail.has(record.email)) this.byEmail.set(record.email, record);
    if (record.crmId && !this.byCrmId.has(record.crmId)) this.byCrmId.set(record.crmId, record);
    if (record.matchKey) {
      const list = this.byMatchKey.get(record.matchKey);
      if (list) list.push(record);
      else this.byMatchKey.set(record.matchKey, [record]);
    }
  }

  find(row: MatchFields): T | null {
    return findMatch(row, this);
  }
}

/** A 12-character stand-in for a key (the first 12 bytes of its SHA-1, one byte a character). */
const digest = (s: string) => hash("sha1", s, "binary").slice(0, 12);

const EMAIL = 1;
const CRM = 2;

/**
 * The rows of one file as they are read: `seen(row)` is true when an earlier row is the same
 * person (the row is a duplicate within the file, by the rules of findMatch), otherwise it
 * remembers the row. Only 12-byte digests of the keys are kept, and for a name and address which
 * kinds of rows (with or without email, with or without CRM id) had it: some 60 bytes a row, so a
 * 200,000-row file takes about 12 MB.
 */
export class FileDuplicates {
  private readonly emails = new Set<string>();
  private readonly crmIds = new Set<string>();
  /** digest -> the (email?, CRM id?) combinations seen with it, one bit each of 4. */
  private readonly matchKeys = new Map<string, number>();

  seen(row: MatchFields): boolean {
    const e = row.email === null ? null : digest(row.email);
    const c = row.crmId === null ? null : digest(row.crmId);
    const m = row.matchKey === null ? null : digest(row.matchKey);
    const kind = (row.email ? EMAIL : 0) | (row.crmId ? CRM : 0);
    if (e !== null && this.emails.has(e)) return true;
    if (c !== null && this.crmIds.has(c)) return true;
    if (m !== null) {
      const combos = this.matchKeys.get(m) ?? 0;
      for (let other = 0; other < 4; other++) {
        // Compatible: not both with an email, not both with a CRM id.
        if (combos & (1 << other) && !(other & kind & EMAIL) && !(other & kind & CRM)) return true;
      }
    }
    if (e !== null) this.emails.add(e);
    if (c !== null) this.crmIds.add(c);
    if (m !== null) this.matchKeys.set(m, (this.matchKeys.get(m) ?? 0) | (1 << kind));
    return false;
  }
}
