import { Prisma, type PrismaClient } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { copyPrepared, copyRows } from "@/server/ground/platform/copy-in";
import { STAGE, stageText, stageValues } from "./stage-rows";
import type { Batch } from "./prepare";

/**
 * The staging table of imports (ContactImportStage, UNLOGGED): a batch's checked rows are loaded
 * into it with COPY (PGlite: multi-row INSERTs) before the batch's transaction, and the
 * transaction's set-based statements (staged-write.ts) read them there and delete them. Rows are
 * keyed by import and file row number, so a resumed or retried job stages its batch again after
 * clearing what an interrupted run left. Its columns, and a batch's rows as its values, are in
 * stage-rows.ts.
 */

/**
 * Loads a batch's rows into the staging table (outside any transaction: COPY runs on a connection
 * of its own): the COPY text the import's thread made (batch.stageText), else, with `asText` (the
 * database takes COPY: PostgreSQL), that text made here from the rows, else the rows (PGlite).
 */
export function stageBatch(prisma: PrismaClient, importId: string, batch: Batch, asText = false): Promise<void> {
  const text = batch.stageText ?? (asText ? stageText(importId, batch) : undefined);
  // Not kept with the batch once it is on its way: the batch is held until it is written.
  batch.stageText = undefined;
  if (text !== undefined) return copyPrepared(prisma, STAGE, text, () => stageValues(importId, batch));
  return copyRows(prisma, STAGE, stageValues(importId, batch));
}

/** Removes an import's staged rows (from `rows`, the first and last row of a batch): in a batch's transaction once it is written, and all of them when a run starts or ends. */
export function clearStage(db: Db | PrismaClient, importId: string, rows?: [number, number]) {
  return db.$executeRaw(clearStageSql(importId, rows));
}

/** clearStage's statement (a batch's transaction runs it with hotSql). */
export function clearStageSql(importId: string, rows?: [number, number]) {
  const range = rows ? Prisma.sql`AND row BETWEEN ${rows[0]} AND ${rows[1]}` : Prisma.empty;
  return Prisma.sql`DELETE FROM "ContactImportStage" WHERE "importId" = ${importId} ${range}`;
}

/** A batch's first and last row number: its rows in the staging table (the next batch may be staged beside it). */
export const batchRange = (rowNumbers: number[]): [number, number] => [
  rowNumbers[0] ?? 0,
  rowNumbers[rowNumbers.length - 1] ?? -1,
];

/** How many staged rows an import has (tests). */
export async function stagedRows(db: Db | PrismaClient, importId: string): Promise<number> {
  const [r] = await db.$queryRaw<{ n: number }[]>(
    Prisma.sql`SELECT count(*)::int AS n FROM "ContactImportStage" WHERE "importId" = ${importId}`,
  );
  return r.n;
}
