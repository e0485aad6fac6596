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
const digest = (s: string) => hash("sha1", s, "binary");

/**
 * A set of keys' 12-byte digests (with a small number kept beside each) in flat typed arrays, open
 * addressing, at most half full: 100,000 keys take 3.3 MB outside V8's heap, where a Set of
 * 12-character strings took about 6 MB inside it, each string an object the garbage collector
 * marks at every full collection (the import's thread keeps three of these for the whole file).
 */
class DigestTable {
  private words = new Uint32Array(3 * 1024);
  private marks = new Uint8Array(1024);
  private size = 0;

  /** The key's slot: the digest's own, or the empty one where it goes. */
  private slot(a: number, b: number, c: number): number {
    const mask = this.marks.length - 1;
    for (let i = (a ^ (b >>> 7) ^ (c << 3)) & mask; ; i = (i + 1) & mask) {
      if (this.marks[i] === 0) return i;
      const w = 3 * i;
      if (this.words[w] === a && this.words[w + 1] === b && this.words[w + 2] === c) return i;
    }
  }

  /** The last key asked for (get): its digest's three words and its slot, where keepLast writes. */
  private a = 0;
  private b = 0;
  private c = 0;
  private at = 0;

  /** The number kept with the key (1 to 255), or 0 when the key is not in the table. */
  get(key: string): number {
    const d = digest(key);
    this.a = word(d, 0);
    this.b = word(d, 4);
    this.c = word(d, 8);
    this.at = this.slot(this.a, this.b, this.c);
    return this.marks[this.at];
  }

  /** Keeps the key last asked for (get, with no set since) with `mark` (1 to 255), in place of what it had: one digest per key and row. */
  keepLast(mark: number): void {
    let i = this.at;
    if (this.marks[i] === 0) {
      if (2 * (this.size + 1) > this.marks.length) {
        this.grow();
        i = this.slot(this.a, this.b, this.c);
      }
      this.size++;
      this.words[3 * i] = this.a;
      this.words[3 * i + 1] = this.b;
      this.words[3 * i + 2] = this.c;
    }
    this.marks[i] = mark;
  }

  private grow(): void {
    const { words, marks } = this;
    this.words = new Uint32Array(words.length * 2);
    this.marks = new Uint8Array(marks.length * 2);
    for (let i = 0; i < marks.length; i++) {
      if (marks[i] === 0) continue;
      const j = this.slot(words[3 * i], words[3 * i + 1], words[3 * i + 2]);
      this.words.set(words.subarray(3 * i, 3 * i + 3), 3 * j);
      this.marks[j] = marks[i];
    }
  }
}

/** Four of a digest's characters (bytes) as one 32-bit number. */
const word = (d: string, at: number) =>
  (d.charCodeAt(at) | (d.charCodeAt(at + 1) << 8) | (d.charCodeAt(at + 2) << 16) | (d.charCodeAt(at + 3) << 24)) >>> 0;

const EMAIL = 1;
const CRM = 2;

/**
 * The rows of one file as they are read: `seen(row)` is true when an earlier row is the same
 * person (the row is a duplicate within the file, by the rules of findMatch), otherwise it
 * remembers the row. Only 12-byte digests of the keys are kept (DigestTable), and for a name and
 * address which kinds of rows (with or without email, with or without CRM id) had it: about 100
 * bytes a row at most, so a 200,000-row file takes about 13 MB, none of it in V8's heap.
 */
export class FileDuplicates {
  private readonly emails = new DigestTable();
  private readonly crmIds = new DigestTable();
  /** A name and address -> the (email?, CRM id?) combinations seen with it, one bit each of 4, plus 16 so that none is 0. */
  private readonly matchKeys = new DigestTable();

  seen(row: MatchFields): boolean {
    const kind = (row.email ? EMAIL : 0) | (row.crmId ? CRM : 0);
    // Every key of the row is looked up before any is kept (each table remembers its last lookup).
    const byEmail = row.email === null ? 0 : this.emails.get(row.email);
    const byCrmId = row.crmId === null ? 0 : this.crmIds.get(row.crmId);
    const combos = row.matchKey === null ? 0 : this.matchKeys.get(row.matchKey);
    if (byEmail || byCrmId) return true;
    for (let other = 0; other < 4; other++) {
      // Compatible: not both with an email, not both with a CRM id.
      if (combos & (1 << other) && !(other & kind & EMAIL) && !(other & kind & CRM)) return true;
    }
    if (row.email !== null) this.emails.keepLast(1);
    if (row.crmId !== null) this.crmIds.keepLast(1);
    if (row.matchKey !== null) this.matchKeys.keepLast(combos | 16 | (1 << kind));
    return false;
  }
}
