/**
 * Bulk loading of rows into a table, outside any transaction: on PostgreSQL with `COPY … FROM
 * STDIN` (pg-copy-streams) on a connection of the pool, on PGlite with multi-row INSERTs on its one
 * connection. Both give the same rows, so the statements that read them are the same on both.
 */
import type { Readable } from "node:stream";

/** A table's rows for COPY: one array of values per row, in the order of `columns`; null is NULL. */
export type CopyValue = string | number | null;

export interface CopyTarget {
  table: string;
  columns: readonly string[];
  /** PostgreSQL type of each column (for the INSERT fallback's casts), e.g. "text", "int", "jsonb". */
  types: readonly string[];
}

/** Loads rows; a loader that runs COPY also takes a body already in COPY's text format (`text`). */
type Loader = ((target: CopyTarget, rows: CopyValue[][]) => Promise<void>) & {
  text?: (target: CopyTarget, body: string) => Promise<void>;
};

// One registry per process (see hot-sql.ts for why it lives on globalThis).
const registry = Symbol.for("direct-mail.copy-in-loaders");
const loaders: WeakMap<object, Loader> = ((globalThis as { [registry]?: WeakMap<object, Loader> })[registry] ??=
  new WeakMap());

export function registerLoader(client: object, loader: Loader): void {
  loaders.set(client, loader);
}

type RawClient = { $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number> };

/**
 * Loads `rows` into `target` through the loader registered for this Prisma client (openDatabase);
 * a client without one (a wrapper of it, say) gets the multi-row INSERTs through Prisma.
 */
export function copyRows(client: RawClient, target: CopyTarget, rows: CopyValue[][]): Promise<void> {
  if (!rows.length) return Promise.resolve();
  const loader = loaders.get(client) ?? insertLoader((text, values) => client.$executeRawUnsafe(text, ...values));
  return loader(target, rows);
}

/**
 * Loads rows given as a COPY text body (copyBodyText, made where the rows were read: the import's
 * thread) when the client's loader runs COPY; otherwise the rows from `rows()` (PGlite: INSERTs).
 */
export function copyPrepared(
  client: RawClient,
  target: CopyTarget,
  body: string,
  rows: () => CopyValue[][],
): Promise<void> {
  const loader = loaders.get(client);
  if (loader?.text) return body ? loader.text(target, body) : Promise.resolve();
  return copyRows(client, target, rows());
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** One value in COPY's text format: backslash, tab, newline and carriage return escaped; \N is NULL. */
export function copyText(v: CopyValue): string {
  if (v === null) return "\\N";
  const s = String(v);
  return /[\\\t\n\r]/.test(s)
    ? s.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"))
    : s;
}

/** The COPY statement and its text-format body, in pieces of about 256 KB. */
export function copyStatement(target: CopyTarget): string {
  return `COPY ${quote(target.table)} (${target.columns.map(quote).join(", ")}) FROM STDIN`;
}

export function* copyBody(rows: CopyValue[][]): Generator<string> {
  let piece = "";
  for (const row of rows) {
    piece += `${row.map(copyText).join("\t")}\n`;
    if (piece.length >= 256 * 1024) {
      yield piece;
      piece = "";
    }
  }
  if (piece) yield piece;
}

/** Rows in COPY's text format, as one string (copyPrepared's body). */
export const copyBodyText = (rows: CopyValue[][]): string => [...copyBody(rows)].join("");

/** The loader of a `pg` pool: COPY FROM STDIN on one of its connections. */
export function poolLoader(pool: {
  connect(): Promise<{ query(stream: unknown): unknown; release(error?: Error | boolean): void }>;
}): Loader {
  const load = async (target: CopyTarget, body: Iterable<string>) => {
    const { from } = await import("pg-copy-streams");
    const { Readable: ReadableStream } = await import("node:stream");
    const { pipeline } = await import("node:stream/promises");
    const client = await pool.connect();
    let failed: Error | undefined;
    try {
      const sink = client.query(from(copyStatement(target))) as NodeJS.WritableStream;
      await pipeline(ReadableStream.from(body) as Readable, sink);
    } catch (error) {
      failed = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      // A connection whose COPY failed half-way is not given back to the pool.
      client.release(failed ?? false);
    }
  };
  return Object.assign((target: CopyTarget, rows: CopyValue[][]) => load(target, copyBody(rows)), {
    text: (target: CopyTarget, body: string) => load(target, [body]),
  });
}

/** Rows per INSERT on PGlite: PostgreSQL takes at most 65,535 parameters in one statement. */
const insertRows = (columns: number) => Math.max(1, Math.min(1000, Math.floor(60_000 / columns)));

/** The loader of PGlite (no COPY FROM STDIN through its query API): multi-row INSERTs. */
export function insertLoader(query: (text: string, values: unknown[]) => Promise<unknown>): Loader {
  return async (target, rows) => {
    const n = target.columns.length;
    const head = `INSERT INTO ${quote(target.table)} (${target.columns.map(quote).join(", ")}) VALUES `;
    const size = insertRows(n);
    for (let start = 0; start < rows.length; start += size) {
      const part = rows.slice(start, start + size);
      const tuples = part.map((_, r) => `(${target.types.map((t, c) => `$${r * n + c + 1}::${t}`).join(", ")})`);
      await query(head + tuples.join(", "), part.flat());
    }
  };
}
