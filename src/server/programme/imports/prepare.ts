import { FileDuplicates } from "@/server/records/contacts/dedupe";
import { contactKeys } from "@/server/records/contacts/keys";
import type { TContactInput } from "@/server/records/contacts/write-model";
import { type CsvRecord, isBlankRecord } from "./csv";
import type { TColumnTarget } from "@/server/records/contacts/csv-headers";
import { MAX_KEPT_DUPLICATES } from "./limits";
import { type RowIssue, rowReader } from "./rows";

const MAX_KEPT_VALUES = 100;

export interface Issue extends RowIssue {
  row: number;
  kind: "refused" | "warning";
  values: string[];
}

/** One batch of an import's rows, read and checked, ready to write (plain data: it crosses threads). */
export interface Batch {
  rows: TContactInput[];
  /** Each of `rows`' number in the file (the header row being row 1). */
  rowNumbers: number[];
  /** Rows that repeat an earlier row of the file (not written): their number and what finds the contact they joined. */
  repeats: { row: number; email: string | null; crmId: string | null; matchKey: string | null }[];
  issues: Issue[];
  skipped: number;
  duplicates: number;
  /** Data rows of the file read up to the end of this batch: where a resumed run continues. */
  dataRowsAfter: number;
  /** The rows in COPY's text format for the staging table, when the import's thread made them (see stage-rows.ts). */
  stageText?: string;
}

export interface RowCheckOptions {
  targets: TColumnTarget[];
  headers: string[];
  /** Data rows a previous run already committed: they are read again (to know the file's duplicates) but not written. */
  alreadyDone: number;
}

/**
 * The CPU part of an import, no database: each record read as a contact by the mapping, its keys
 * worked out, duplicates within the file found, refused rows and warnings kept by row number.
 * The state (row numbers, the file's duplicates) runs across batches, so one checker reads one
 * file from its start. It runs in the import's thread (parse-thread.ts) or, for a small file, in
 * the job itself.
 */
export function rowChecker(o: RowCheckOptions) {
  const seen = new FileDuplicates();
  const readRow = rowReader(o.targets, o.headers);
  let recordNo = 0; // records read, blank lines and the header included: the spreadsheet's row number
  let headerSeen = false;
  let dataRows = 0;
  // Only the rows whose contact the report can list are carried to the writer (see MAX_KEPT_DUPLICATES).
  let repeatsKept = 0;
  const kept = (values: string[]) =>
    values.slice(0, MAX_KEPT_VALUES).map((v) => v.replace(/\u0000/g, "").slice(0, 1000));

  /** An empty batch, to fill with `add` and close with `end`. */
  const begin = (): Batch => ({
    rows: [],
    rowNumbers: [],
    repeats: [],
    issues: [],
    skipped: 0,
    duplicates: 0,
    dataRowsAfter: 0,
  });
  // Rows of the open batch that no earlier run wrote.
  let fresh = 0;

  /** Reads records[from, to) into the open batch: the records of one batch may be read a slice at a time. */
  const add = (batch: Batch, records: CsvRecord[], from = 0, to = records.length) => {
    for (let r = from; r < to; r++) {
      const rec = records[r];
      recordNo++;
      if (isBlankRecord(rec.values)) continue;
      if (!headerSeen) {
        headerSeen = true;
        continue;
      }
      dataRows++;
      const replay = dataRows <= o.alreadyDone;
      if (!replay) fresh++;
      if (rec.error) {
        if (!replay)
          batch.issues.push({
            row: recordNo,
            kind: "refused",
            column: null,
            reason: `the row could not be read: ${rec.error}`,
            values: kept(rec.values),
          });
        continue;
      }
      const prepared = readRow(rec.values);
      if (prepared.kind === "refused") {
        if (!replay) batch.issues.push({ row: recordNo, kind: "refused", ...prepared.issue, values: kept(rec.values) });
        continue;
      }
      const c = prepared.contact;
      c.keys = contactKeys(c);
      const match = { email: c.email, crmId: c.crmId, matchKey: c.keys.matchKey };
      const duplicate = seen.seen(match);
      if (replay) continue;
      for (const w of prepared.warnings)
        batch.issues.push({ row: recordNo, kind: "warning", ...w, values: kept(rec.values) });
      if (duplicate) {
        batch.skipped++;
        batch.duplicates++;
        if (repeatsKept < MAX_KEPT_DUPLICATES) {
          repeatsKept++;
          batch.repeats.push({ row: recordNo, ...match });
        }
        continue;
      }
      batch.rows.push(c);
      batch.rowNumbers.push(recordNo);
    }
  };

  /** Closes the open batch: it, or null when all of its rows were written by an earlier run. */
  const end = (batch: Batch): Batch | null => {
    batch.dataRowsAfter = dataRows;
    const any = fresh > 0;
    fresh = 0;
    return any ? batch : null;
  };

  /** The batch of these records, or null when all of them were written by an earlier run. */
  const check = (records: CsvRecord[]): Batch | null => {
    const batch = begin();
    add(batch, records);
    return end(batch);
  };
  return { check, begin, add, end, dataRows: () => dataRows };
}
