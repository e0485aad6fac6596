import { z } from "zod";
import type { PrismaClient } from "@/generated/prisma/client";
import { FileDuplicates } from "@/server/contacts/dedupe";
import { contactKeys } from "@/server/contacts/keys";
import { newAccountCache, writeContacts, type TContactInput } from "@/server/contacts/write";
import { defineJobHandler, JobError, type JobRun } from "@/server/jobs/handler";
import { type CsvRecord, csvBatches, isBlankRecord, type TEncoding } from "./csv";
import type { TColumnTarget } from "./headers";
import { IMPORT_BATCH_ROWS } from "./limits";
import { forgetQueryHistory } from "./query-history";
import { type RowIssue, rowReader } from "./rows";
import { storedText } from "./upload";

/** Warnings kept per import (all are counted); refused rows are all kept, for the downloadable list. */
const MAX_KEPT_WARNINGS = 10_000;
const MAX_KEPT_VALUES = 100;
/** Rows checked between two turns of the event loop while a batch is prepared. */
const YIELD_EVERY_ROWS = 50;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface TImportResult {
  importId: string;
  rows: number;
  created: number;
  updated: number;
  skipped: number;
  duplicates: number;
  refused: number;
  warnings: number;
  /** Fields left as they were because a person, an agent or an accepted fix had changed them (the file's value unchanged since). */
  keptFields: number;
  audienceId: string | null;
}

interface Issue extends RowIssue {
  row: number;
  kind: "refused" | "warning";
  values: string[];
}

interface Batch {
  rows: TContactInput[];
  issues: Issue[];
  skipped: number;
  duplicates: number;
  /** Data rows of the file read up to the end of this batch: where a resumed run continues. */
  dataRowsAfter: number;
}

/**
 * The contacts_import job: streams the kept file, reads `IMPORT_BATCH_ROWS` rows at a time and
 * writes each batch in one transaction together with its refused rows, the import's counts and the
 * job's checkpoint. A crash or a lost lease resumes after the last committed batch (the rows before
 * it are only read again, to know which rows of the file came earlier); a cancel keeps the batches
 * already committed and writes nothing of the current one.
 */
export const contactsImportJob = defineJobHandler({
  kind: "contacts_import",
  input: z.object({ importId: z.string() }),
  async run(run) {
    return { ...(await runImport(run.db, run, run.input.importId)) };
  },
});

async function runImport(prisma: PrismaClient, run: JobRun<unknown>, importId: string): Promise<TImportResult> {
  const record = await prisma.contactImport.findFirst({ where: { id: importId, workspaceId: run.job.workspaceId } });
  if (!record) throw new JobError("The import's file is no longer here; upload it again.");
  if (!record.mapping || !record.onExisting) throw new JobError("The import has no column mapping; start it again.");
  const targets = record.mapping as TColumnTarget[];
  const headers = record.columns;
  const counts = { created: record.created, updated: record.updated, skipped: record.skipped, duplicates: record.duplicates, refused: record.refused, warnings: record.warnings, keptFields: record.keptFields };
  const alreadyDone = record.rowsDone;
  let dataRows = 0;
  const result = (): TImportResult => ({ importId, rows: dataRows || record.rowCount, ...counts, audienceId: record.audienceId });
  if (alreadyDone >= record.rowCount && record.finishedAt) return result();
  if ((await prisma.contactImportChunk.count({ where: { importId } })) === 0) {
    throw new JobError("The import's file is no longer kept (files are kept for a day after an import ends); upload it again.");
  }

  const seen = new FileDuplicates();
  const readRow = rowReader(targets, headers);
  const accountCache = newAccountCache();
  let recordNo = 0; // records read, blank lines and the header included: the spreadsheet's row number
  let headerSeen = false;
  let keptWarnings = record.warnings;
  const kept = (values: string[]) => values.slice(0, MAX_KEPT_VALUES).map((v) => v.replace(/\u0000/g, "").slice(0, 1000));

  /**
   * The rows of one batch of records, read and checked (no database). It runs while the database
   * writes the batch before, and gives the event loop back every 50 rows so that the
   * write's next statement goes out as soon as the one before returns: Node and PostgreSQL work at
   * the same time instead of taking turns (a first import of 100,000 rows took three seconds less).
   */
  const prepare = async (records: CsvRecord[]): Promise<Batch | null> => {
    const batch: Batch = { rows: [], issues: [], skipped: 0, duplicates: 0, dataRowsAfter: 0 };
    let fresh = 0;
    for (const [i, rec] of records.entries()) {
      if (i % YIELD_EVERY_ROWS === YIELD_EVERY_ROWS - 1) await yieldToEventLoop();
      recordNo++;
      if (isBlankRecord(rec.values)) continue;
      if (!headerSeen) {
        headerSeen = true;
        continue;
      }
      dataRows++;
      const replay = dataRows <= alreadyDone;
      if (!replay) fresh++;
      if (rec.error) {
        if (!replay) batch.issues.push({ row: recordNo, kind: "refused", column: null, reason: `the row could not be read: ${rec.error}`, values: kept(rec.values) });
        continue;
      }
      const prepared = readRow(rec.values);
      if (prepared.kind === "refused") {
        if (!replay) batch.issues.push({ row: recordNo, kind: "refused", ...prepared.issue, values: kept(rec.values) });
        continue;
      }
      const c = prepared.contact;
      c.keys = contactKeys(c);
      const duplicate = seen.seen({ email: c.email, crmId: c.crmId, matchKey: c.keys.matchKey });
      if (replay) continue;
      for (const w of prepared.warnings) batch.issues.push({ row: recordNo, kind: "warning", ...w, values: kept(rec.values) });
      if (duplicate) {
        batch.skipped++;
        batch.duplicates++;
        continue;
      }
      batch.rows.push(c);
    }
    batch.dataRowsAfter = dataRows;
    return fresh ? batch : null;
  };

  /** Writes one batch, its issues, the import's counts and the job's checkpoint in one transaction. */
  const write = (batch: Batch) =>
    prisma.$transaction(
      async (tx) => {
        // A crash may lose the last batches committed this way, but each with its checkpoint, so the
        // resumed run writes them again: never half a batch, never one twice.
        await tx.$executeRaw`SET LOCAL synchronous_commit = off`;
        const outcomes = batch.rows.length
          ? await writeContacts(tx, batch.rows, {
              workspaceId: record.workspaceId,
              onExisting: record.onExisting!,
              audienceId: record.audienceId,
              source: "import",
              sourceDetail: record.fileName,
              sourceImportId: importId,
              accountCache,
            })
          : [];
        const delta = { created: 0, updated: 0, skipped: batch.skipped, duplicates: batch.duplicates, refused: 0, warnings: 0, keptFields: 0 };
        for (const o of outcomes) {
          delta.keptFields += o.keptFields;
          if (o.outcome === "created") delta.created++;
          else if (o.outcome === "updated") delta.updated++;
          else {
            delta.skipped++;
            if (o.outcome === "duplicate") delta.duplicates++;
          }
        }
        const refused = batch.issues.filter((i) => i.kind === "refused");
        const warnings = batch.issues.filter((i) => i.kind === "warning");
        delta.refused = refused.length;
        delta.warnings = warnings.length;
        const keep = [...refused, ...warnings.slice(0, Math.max(0, MAX_KEPT_WARNINGS - keptWarnings))];
        if (keep.length) {
          await tx.contactImportIssue.createMany({ data: keep.map((i) => ({ importId, row: i.row, kind: i.kind, column: i.column, reason: i.reason.slice(0, 500), values: i.values })) });
        }
        await tx.contactImport.update({
          where: { id: importId },
          data: {
            rowsDone: batch.dataRowsAfter,
            created: { increment: delta.created },
            updated: { increment: delta.updated },
            skipped: { increment: delta.skipped },
            duplicates: { increment: delta.duplicates },
            refused: { increment: delta.refused },
            warnings: { increment: delta.warnings },
            keptFields: { increment: delta.keptFields },
          },
        });
        await run.checkpoint(tx, { rowsDone: batch.dataRowsAfter }, batch.dataRowsAfter, record.rowCount);
        return { delta, warnings: warnings.length };
      },
      { timeout: 120_000, maxWait: 30_000 },
    );

  // The next batch is read and checked while the database writes the current one.
  const batches = csvBatches(storedText(prisma, importId, record.encoding as TEncoding), record.delimiter, IMPORT_BATCH_ROWS);
  let writing: Promise<void> | null = null;
  for await (const records of batches) {
    const batch = await prepare(records);
    if (writing) await writing;
    if (!batch) continue;
    writing = write(batch).then((done) => {
      forgetQueryHistory();
      for (const k of Object.keys(done.delta) as (keyof typeof done.delta)[]) counts[k] += done.delta[k];
      keptWarnings += done.warnings;
    });
    // A failed batch stops the run at once (the next one would be read for nothing).
    writing.catch(() => undefined);
  }
  if (writing) await writing;
  await prisma.$transaction([
    // The upload's quick count may differ from what Papa Parse read on a malformed file: the report gives what was read.
    prisma.contactImport.update({ where: { id: importId }, data: { finishedAt: run.now(), rowsDone: dataRows, rowCount: dataRows } }),
    prisma.contactImportChunk.deleteMany({ where: { importId } }),
  ]);
  if (counts.created + counts.updated >= 1000) {
    // Fresh statistics after a bulk write, so the contacts list plans its searches and filters on
    // what is there now rather than waiting for autovacuum (a list of 100,000 contacts went from
    // seconds to tens of milliseconds). Not part of the import: it runs once the import is done
    // (about a second for 100,000 contacts), and a failure is only logged.
    void prisma.$executeRawUnsafe(`ANALYZE "Contact", "Account", "AudienceMember"`).catch((error) => console.error("[imports] ANALYZE after an import failed", error));
  }
  return result();
}
