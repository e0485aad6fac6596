import { z } from "zod";
import { Prisma, type PrismaClient } from "@/generated/prisma/client";
import { newAccountCache } from "@/server/records/contacts/write-model";
import { findContactIds } from "@/server/records/contacts/write";
import { defineJobHandler, JobError, JobLeaseLost, type JobRun } from "@/server/records/jobs/handler";
import { onPostgresServer } from "@/server/ground/platform/config";
import { hotSql, hotTransaction } from "@/server/ground/platform/hot-transaction";
import { checkedBatches } from "./checked-batches";
import type { TEncoding } from "./csv";
import type { TColumnTarget } from "@/server/records/contacts/csv-headers";
import { IMPORT_BATCH_ROWS, MAX_KEPT_DUPLICATES } from "./limits";
import type { Batch } from "./prepare";
import { forgetQueryHistory } from "./query-history";
import { clearStage, stageBatch } from "./stage";
import { writeStaged } from "./staged-write";

/** Warnings kept per import (all are counted); refused rows are all kept, for the downloadable list. */
const MAX_KEPT_WARNINGS = 10_000;

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

/**
 * Rows per transaction. On PostgreSQL a batch of IMPORT_BATCH_ROWS is written while other
 * connections serve the web. The embedded PGlite runs every statement on the server's own thread,
 * one at a time, so there a transaction is kept to a few hundred rows: a request waits for one
 * short transaction at most, never for a long one (IMPORT_WRITE_ROWS changes it).
 */
export function importWriteRows(): number {
  const set = Number(process.env.IMPORT_WRITE_ROWS);
  if (Number.isInteger(set) && set > 0) return set;
  return onPostgresServer() ? IMPORT_BATCH_ROWS : EMBEDDED_WRITE_ROWS;
}
const EMBEDDED_WRITE_ROWS = 250;
/** On PostgreSQL a batch is staged (COPY, a connection of its own) while the one before is written. */
const overlapStaging = onPostgresServer;

/**
 * The contacts_import job: streams the kept file to a thread that parses and checks it
 * (checked-batches.ts), stages each batch (`importWriteRows()` rows) with COPY in an unlogged table
 * (stage.ts; on PostgreSQL while the batch before is written) and writes it with set-based
 * statements (staged-write.ts) in one transaction together with its refused rows, the import's
 * counts and the job's checkpoint. A crash or a lost lease resumes after the last committed batch (the rows before
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
  const counts = {
    created: record.created,
    updated: record.updated,
    skipped: record.skipped,
    duplicates: record.duplicates,
    refused: record.refused,
    warnings: record.warnings,
    keptFields: record.keptFields,
  };
  const alreadyDone = record.rowsDone;
  let dataRows = 0;
  const result = (): TImportResult => ({
    importId,
    rows: dataRows || record.rowCount,
    ...counts,
    audienceId: record.audienceId,
  });
  if (alreadyDone >= record.rowCount && record.finishedAt) return result();
  if ((await prisma.contactImportChunk.count({ where: { importId } })) === 0) {
    throw new JobError(
      "The import's file is no longer kept (files are kept for a day after an import ends); upload it again.",
    );
  }

  const accountCache = newAccountCache();
  let keptWarnings = record.warnings;
  let keptDuplicates = await prisma.contactImportDuplicate.count({ where: { importId } });

  /**
   * Writes one batch, its issues, the import's counts and the job's checkpoint in one transaction.
   * A hot transaction (platform/hot-transaction.ts): the batch's raw statements (staged-write.ts,
   * account-resolve.ts) run straight on its connection, without Prisma's query pipeline.
   */
  const write = (batch: Batch) =>
    hotTransaction(
      prisma,
      async (tx) => {
        // Committed without waiting for the write-ahead log (synchronous_commit off; writeStaged sets it
        // with the workspace's lock). A crash may lose the last batches committed this way, but each
        // with its checkpoint, so the resumed run writes them again: never half a batch, never one twice.
        if (!batch.rows.length) await hotSql(tx, Prisma.sql`SELECT set_config('synchronous_commit', 'off', true)`);
        const outcomes = batch.rows.length
          ? await writeStaged(tx, importId, batch, {
              asyncCommit: true,
              workspaceId: record.workspaceId,
              onExisting: record.onExisting!,
              audienceId: record.audienceId,
              source: "import",
              sourceDetail: record.fileName,
              sourceImportId: importId,
              accountCache,
            })
          : [];
        const delta = {
          created: 0,
          updated: 0,
          skipped: batch.skipped,
          duplicates: batch.duplicates,
          refused: 0,
          warnings: 0,
          keptFields: 0,
        };
        for (const o of outcomes) {
          delta.keptFields += o.keptFields;
          if (o.outcome === "created") delta.created++;
          else if (o.outcome === "updated") delta.updated++;
          else {
            delta.skipped++;
            if (o.outcome === "duplicate") delta.duplicates++;
          }
        }
        // The rows merged as duplicates, each with the contact it joined: a repeat of another row of
        // this batch (writeContacts says which contact), or of an earlier row of the file (looked
        // up, all of the batch's at once, now that the earlier row is written).
        const merged: { importId: string; row: number; contactId: string | null }[] = [];
        outcomes.forEach(
          (o, i) =>
            o.outcome === "duplicate" && merged.push({ importId, row: batch.rowNumbers[i], contactId: o.contactId }),
        );
        const room = Math.max(0, MAX_KEPT_DUPLICATES - keptDuplicates - merged.length);
        const repeats = batch.repeats.slice(0, room);
        const joined = await findContactIds(tx, record.workspaceId, repeats);
        repeats.forEach((r, i) => merged.push({ importId, row: r.row, contactId: joined[i] }));
        const keepMerged = merged
          .sort((a, b) => a.row - b.row)
          .slice(0, Math.max(0, MAX_KEPT_DUPLICATES - keptDuplicates));
        if (keepMerged.length) await tx.contactImportDuplicate.createMany({ data: keepMerged, skipDuplicates: true });
        const refused = batch.issues.filter((i) => i.kind === "refused");
        const warnings = batch.issues.filter((i) => i.kind === "warning");
        delta.refused = refused.length;
        delta.warnings = warnings.length;
        const keep = [...refused, ...warnings.slice(0, Math.max(0, MAX_KEPT_WARNINGS - keptWarnings))];
        if (keep.length) {
          await tx.contactImportIssue.createMany({
            data: keep.map((i) => ({
              importId,
              row: i.row,
              kind: i.kind,
              column: i.column,
              reason: i.reason.slice(0, 500),
              values: i.values,
            })),
          });
        }
        // One raw statement on the transaction's connection (a model call is compiled by Prisma's query compiler each time).
        await hotSql(
          tx,
          Prisma.sql`
          UPDATE "ContactImport"
             SET "rowsDone" = ${batch.dataRowsAfter}::int, created = created + ${delta.created}::int, updated = updated + ${delta.updated}::int,
                 skipped = skipped + ${delta.skipped}::int, duplicates = duplicates + ${delta.duplicates}::int, refused = refused + ${delta.refused}::int,
                 warnings = warnings + ${delta.warnings}::int, "keptFields" = "keptFields" + ${delta.keptFields}::int
           WHERE id = ${importId}`,
        );
        await run.checkpoint(tx, { rowsDone: batch.dataRowsAfter }, batch.dataRowsAfter, record.rowCount);
        return { delta, warnings: warnings.length, duplicatesKept: keepMerged.length };
      },
      { timeout: 120_000, maxWait: 30_000 },
    );

  // The file is read and checked off the event loop (a thread for a large file); each batch is
  // written as it comes, while the next one is read.
  const file = checkedBatches(prisma, importId, {
    targets,
    headers,
    alreadyDone,
    encoding: record.encoding as TEncoding,
    delimiter: record.delimiter,
    batchRows: importWriteRows(),
    byteSize: record.byteSize,
    // On PostgreSQL the thread also writes each batch's rows in COPY's text format, off the event loop.
    stageImportId: overlapStaging() ? importId : undefined,
  });
  // What an interrupted run staged is staged again; a run that fails leaves nothing staged. A
  // batch's rows go into the staging table with COPY on a connection of their own while the batch
  // before is written, then one transaction writes them.
  await clearStage(prisma, importId);
  const stage = (batch: Batch) => {
    const staged = batch.rows.length ? stageBatch(prisma, importId, batch, overlapStaging()) : Promise.resolve();
    staged.catch(() => {}); // awaited before its batch is written
    return { batch, staged };
  };
  let next: ReturnType<typeof stage> | null = null;
  const writeStagedBatch = async ({ batch, staged }: ReturnType<typeof stage>) => {
    await staged;
    const done = await write(batch);
    forgetQueryHistory();
    for (const k of Object.keys(done.delta) as (keyof typeof done.delta)[]) counts[k] += done.delta[k];
    keptWarnings += done.warnings;
    keptDuplicates += done.duplicatesKept;
    // A turn of the event loop between two transactions: requests waiting for the database go first.
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
  // A run that lost its lease leaves the staged rows to the run that took the job over.
  let leaseLost = false;
  try {
    for await (const batch of file.batches) {
      const staging = stage(batch);
      const before = next;
      next = staging;
      if (before) await writeStagedBatch(before);
      // PGlite has one connection: staging there waits its turn, so there is nothing to overlap.
      if (!overlapStaging()) {
        next = null;
        await writeStagedBatch(staging);
      }
    }
    if (next) {
      const last = next;
      next = null;
      await writeStagedBatch(last);
    }
  } catch (error) {
    leaseLost = error instanceof JobLeaseLost;
    throw error;
  } finally {
    await next?.staged.catch(() => {});
    if (!leaseLost)
      await clearStage(prisma, importId).catch((error: unknown) =>
        console.error("[imports] clearing the staged rows failed", error),
      );
  }
  dataRows = file.dataRows();
  await prisma.$transaction([
    // The upload's quick count may differ from what Papa Parse read on a malformed file: the report gives what was read.
    prisma.contactImport.update({
      where: { id: importId },
      data: { finishedAt: run.now(), rowsDone: dataRows, rowCount: dataRows },
    }),
    prisma.contactImportChunk.deleteMany({ where: { importId } }),
  ]);
  if (counts.created + counts.updated >= 1000) {
    // Fresh statistics after a bulk write, so the contacts list plans its searches and filters on
    // what is there now rather than waiting for autovacuum (a list of 100,000 contacts went from
    // seconds to tens of milliseconds). Not part of the import: it runs once the import is done
    // (about a second for 100,000 contacts), and a failure is only logged.
    void prisma
      .$executeRawUnsafe(`ANALYZE "Contact", "Account", "AudienceMember"`)
      .catch((error) => console.error("[imports] ANALYZE after an import failed", error));
  }
  return result();
}
