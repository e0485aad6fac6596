import { Prisma, type PrismaClient } from "@/generated/prisma/client";
import type { Actor } from "@/server/ground/audit/service";
import { AppError } from "@/server/ground/errors";
import { onPostgresServer } from "@/server/ground/platform/config";
import { hotQuery } from "@/server/ground/platform/hot-sql";
import {
  bomEncoding,
  csvBatches,
  decideEncoding,
  decodeStream,
  detectDelimiter,
  detectNewline,
  isBlankRecord,
  MAX_QUOTED_VALUE,
  RecordCounter,
  textDecoder,
  type TEncoding,
  Utf8Check,
} from "./csv";
import { suggestMapping, type TColumnTarget } from "@/server/records/contacts/csv-headers";
import {
  MAX_IMPORT_BYTES,
  MAX_IMPORT_COLUMNS,
  MAX_IMPORT_ROWS,
  SAMPLE_ROWS,
  STALE_UPLOAD_MS,
  UPLOAD_CHUNK_BYTES,
} from "./limits";

const HEAD_BYTES = 64 * 1024;

export interface TUploadResult {
  importId: string;
  fileName: string;
  byteSize: number;
  encoding: TEncoding;
  delimiter: string;
  rows: number;
  columns: string[];
  sample: string[][];
  suggestedMapping: TColumnTarget[];
}

/** Header names as shown: trimmed, an empty one named by its position. */
export function columnNames(header: string[]): string[] {
  return header.map(
    (h, i) =>
      h
        .replace(/\u0000/g, "")
        .trim()
        .slice(0, 200) || `Column ${i + 1}`,
  );
}

function refuseBinary(head: Uint8Array) {
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) {
    throw new AppError(
      "validation_failed",
      "This is a spreadsheet file (.xlsx or .numbers), not CSV. Save or export it as CSV (comma- or semicolon-separated) and upload that.",
    );
  }
  if (
    head.subarray(0, 4096).includes(0) &&
    !(head[0] === 0xff && head[1] === 0xfe) &&
    !(head[0] === 0xfe && head[1] === 0xff)
  ) {
    throw new AppError("validation_failed", "This file is not text (it holds binary data). Upload a CSV file.");
  }
}

/**
 * Receives a CSV file as a stream of bytes (the browser's upload, or an agent's text) and keeps it
 * in the database in 1 MB pieces, so that any worker can import it later. On the way it checks the
 * size, finds the encoding (byte-order mark, else UTF-8 when valid, else Windows-1252) and the
 * delimiter, counts the rows and reads the header and the first rows for the mapping. Nothing is
 * kept when the file is refused. Memory stays at about one piece whatever the file's size.
 */
export async function receiveUpload(
  prisma: PrismaClient,
  p: {
    workspaceId: string;
    fileName: string;
    body: AsyncIterable<Uint8Array>;
    actor: Actor;
    maxBytes?: number;
    now?: Date;
  },
): Promise<TUploadResult> {
  const maxBytes = p.maxBytes ?? MAX_IMPORT_BYTES;
  const now = p.now ?? new Date();
  await removeStaleUploads(prisma, p.workspaceId, now);
  const fileName =
    p.fileName
      .replace(/[\u0000-\u001f]/g, "")
      .trim()
      .slice(0, 200) || "upload.csv";
  const record = await prisma.contactImport.create({
    data: {
      workspaceId: p.workspaceId,
      fileName,
      byteSize: 0,
      encoding: "utf-8",
      delimiter: ",",
      rowCount: 0,
      requestedByKind: p.actor.kind,
      requestedById: p.actor.id,
      requestedByLabel: p.actor.label,
    },
  });
  try {
    const result = await storeAndScan(prisma, record.id, p.body, maxBytes);
    const updated = await prisma.contactImport.update({
      where: { id: record.id },
      data: {
        byteSize: result.byteSize,
        encoding: result.encoding,
        delimiter: result.delimiter,
        columns: result.columns,
        sample: result.sample,
        rowCount: result.rows,
      },
    });
    return { importId: updated.id, fileName, ...result, suggestedMapping: suggestMapping(result.columns) };
  } catch (error) {
    const removed = await prisma.contactImport.deleteMany({ where: { id: record.id, workspaceId: p.workspaceId } });
    // Discarded (from the imports page, or the workspace deleted) while its file was still arriving:
    // its pieces then had no import to belong to. Said as such, not as the server's failure.
    if (removed.count === 0 && !(error instanceof AppError))
      throw new AppError(
        "conflict",
        "This upload was discarded while the file was still arriving, so nothing of it was kept. Upload the file again to import it.",
      );
    throw error;
  }
}

async function storeAndScan(prisma: PrismaClient, importId: string, body: AsyncIterable<Uint8Array>, maxBytes: number) {
  const utf8 = new Utf8Check();
  const held: Uint8Array[] = [];
  let head = null as Uint8Array | null;
  let pending: Uint8Array[] = [];
  let pendingSize = 0;
  let seq = 0;
  let byteSize = 0;
  const flush = async () => {
    if (!pendingSize) return;
    const data = Buffer.concat(pending, pendingSize);
    pending = [];
    pendingSize = 0;
    // Straight to the driver: Prisma's pipeline would carry each megabyte as base64 text, several times over.
    await hotQuery(
      prisma,
      Prisma.sql`INSERT INTO "ContactImportChunk" ("importId", seq, data) VALUES (${importId}, ${seq++}, ${data})`,
    );
  };
  // Rows are counted on the way. The structure (quotes, delimiters, newlines) reads the same in
  // every ASCII-compatible encoding, so a lenient UTF-8 decoder serves until the encoding is known.
  let counter = null as RecordCounter | null;
  let delimiter = ",";
  let decoder = null as ReturnType<typeof textDecoder> | null;
  let utf16 = false;
  const startCounting = () => {
    head = new Uint8Array(Buffer.concat(held));
    held.length = 0;
    refuseBinary(head);
    const bom = bomEncoding(head);
    utf16 = bom === "utf-16le" || bom === "utf-16be";
    decoder = textDecoder(utf16 ? (bom as TEncoding) : "utf-8");
    const text = decoder.write(head);
    delimiter = detectDelimiter(text);
    counter = new RecordCounter(delimiter, detectNewline(text.slice(0, 65536)));
    // UTF-16 is counted as text; the ASCII-compatible encodings byte by byte, without decoding.
    if (utf16) counter.push(text);
    else counter.pushBytes(head.subarray(bom ? 3 : 0));
  };
  let heldBytes = 0;
  for await (const chunk of body) {
    byteSize += chunk.byteLength;
    if (byteSize > maxBytes) {
      throw new AppError(
        "payload_too_large",
        `The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB. Split it into smaller files and import them one after another.`,
      );
    }
    utf8.push(chunk);
    if (!decoder) {
      held.push(chunk);
      heldBytes += chunk.byteLength;
      if (heldBytes >= HEAD_BYTES) startCounting();
    } else if (utf16) counter!.push(decoder.write(chunk));
    else counter!.pushBytes(chunk);
    pending.push(chunk);
    pendingSize += chunk.byteLength;
    if (pendingSize >= UPLOAD_CHUNK_BYTES) await flush();
  }
  await flush();
  if (byteSize === 0) throw new AppError("validation_failed", "The file is empty.");
  if (!decoder) startCounting();
  if (utf16) counter!.push(decoder!.end());
  const records = counter!.end();
  refuseBrokenQuoting(counter!);
  const headBytes = head!;
  const encoding = decideEncoding(headBytes, utf8.end());
  let headText = textDecoder(encoding).write(headBytes);
  if (byteSize > headBytes.byteLength) headText = headText.slice(0, headText.lastIndexOf("\n") + 1);
  const headRecords: string[][] = [];
  for await (const batch of csvBatches(oneShot(headText), delimiter, SAMPLE_ROWS + 50)) {
    for (const r of batch) if (!isBlankRecord(r.values)) headRecords.push(r.values);
    break;
  }
  if (headRecords.length === 0)
    throw new AppError(
      "validation_failed",
      "The file has no header row: its first line should name the columns (for example First Name, Last Name, Email).",
    );
  const columns = columnNames(headRecords[0]);
  if (columns.length > MAX_IMPORT_COLUMNS) {
    throw new AppError(
      "validation_failed",
      `The file has ${columns.length.toLocaleString("en-US")} columns; one import takes at most ${MAX_IMPORT_COLUMNS}. Remove the columns you do not need, or split them into several files that share an email or CRM id column.`,
    );
  }
  const rows = Math.max(0, records - 1);
  if (rows === 0)
    throw new AppError("validation_failed", "The file has a header row but no rows of contacts below it.");
  if (rows > MAX_IMPORT_ROWS) {
    throw new AppError(
      "validation_failed",
      `The file has ${rows.toLocaleString("en-US")} rows; one import takes at most ${MAX_IMPORT_ROWS.toLocaleString("en-US")}. Split it into smaller files.`,
    );
  }
  const sample = headRecords.slice(1, SAMPLE_ROWS + 1).map((r) => r.map((v) => v.replace(/\u0000/g, "").slice(0, 200)));
  return { byteSize, encoding, delimiter, columns, sample, rows };
}

/**
 * A quote that never closes makes the rest of the file one value (a 48 MB file took a minute to
 * read that way, and imported nothing of it): the upload is refused at once, naming the line where
 * the quoted value opens, so the person can fix it there.
 */
function refuseBrokenQuoting(counter: RecordCounter) {
  const line = counter.unclosedQuoteLine ?? counter.longQuoteLine;
  if (line === null) return;
  const where = `Line ${line.toLocaleString("en-US")}`;
  throw new AppError(
    "validation_failed",
    counter.unclosedQuoteLine !== null
      ? `${where} opens a quoted value that is never closed (a " is missing), so everything after it would be read as one value. Close the quote on that line (a quote inside a value is written twice: "") and upload the file again.`
      : `${where} opens a quoted value that runs on for more than ${MAX_QUOTED_VALUE / 1024 / 1024} MB (its closing " is probably missing), so the lines after it would be read as one value. Close the quote on that line (a quote inside a value is written twice: "") and upload the file again.`,
    { errors: [{ pointer: "/file", detail: `${where}: the quoting breaks here.` }] },
  );
}

async function* oneShot(text: string) {
  yield text;
}

/** Uploads never started, and the kept files of imports that have finished, go after a day. */
async function removeStaleUploads(prisma: PrismaClient, workspaceId: string, now: Date) {
  const before = new Date(now.getTime() - STALE_UPLOAD_MS);
  await prisma.contactImport.deleteMany({ where: { workspaceId, jobId: null, createdAt: { lt: before } } });
  const ended = await prisma.job.findMany({
    where: {
      workspaceId,
      kind: "contacts_import",
      status: { in: ["succeeded", "failed", "cancelled"] },
      finishedAt: { lt: before },
    },
    select: { id: true },
    orderBy: { finishedAt: "desc" },
    take: 500,
  });
  if (ended.length)
    await prisma.contactImportChunk.deleteMany({
      where: { import: { workspaceId, jobId: { in: ended.map((j) => j.id) } } },
    });
  // Rows a run staged and never cleared (a worker killed mid-import whose job then ended): an import
  // that has ended keeps none.
  const endedJobs = await prisma.job.findMany({
    where: {
      workspaceId,
      kind: "contacts_import",
      status: { in: ["succeeded", "failed", "cancelled"] },
      finishedAt: { lt: new Date(now.getTime() - 60 * 60_000) },
    },
    select: { id: true },
    orderBy: { finishedAt: "desc" },
    take: 500,
  });
  if (endedJobs.length)
    await prisma.contactImportStage.deleteMany({
      where: { import: { workspaceId, jobId: { in: endedJobs.map((j) => j.id) } } },
    });
}

/** The kept file of an import, a piece at a time. */
export async function* storedFile(prisma: PrismaClient, importId: string): AsyncGenerator<Uint8Array> {
  const pieces = await prisma.contactImportChunk.findMany({
    where: { importId },
    select: { seq: true },
    orderBy: { seq: "asc" },
  });
  const latin1 = onPostgresServer();
  for (const { seq } of pieces) {
    // On PostgreSQL a piece comes as Latin-1 text when it can (one character per byte, so
    // Buffer.from(text, "latin1") gives the bytes back): about half the bytes and none of the work
    // of bytea's hex form, twice the file's size in text. A piece holding a NUL (UTF-16), or a
    // database not in UTF-8, comes as bytea; PGlite has no encoding conversions, so always bytea there.
    const [row] = await hotQuery<{ text: string | null; data: Uint8Array | null }>(
      prisma,
      latin1
        ? Prisma.sql`SELECT CASE WHEN latin1 THEN convert_from(data, 'LATIN1') END AS text, CASE WHEN latin1 THEN NULL ELSE data END AS data
                       FROM (SELECT data, current_setting('server_encoding') = 'UTF8' AND position('\\x00'::bytea IN data) = 0 AS latin1
                               FROM "ContactImportChunk" WHERE "importId" = ${importId} AND seq = ${seq}) c`
        : Prisma.sql`SELECT NULL::text AS text, data FROM "ContactImportChunk" WHERE "importId" = ${importId} AND seq = ${seq}`,
    );
    if (!row) continue;
    const piece = { data: row.text !== null ? Buffer.from(row.text, "latin1") : row.data! };
    // Pieces of 64 KB: the text made of each stays small (V8 keeps large strings in a space it collects late).
    for (let i = 0; i < piece.data.byteLength; i += 65536) yield piece.data.subarray(i, i + 65536);
  }
}

export async function* storedText(prisma: PrismaClient, importId: string, encoding: TEncoding): AsyncGenerator<string> {
  yield* decodeStream(storedFile(prisma, importId), encoding);
}
