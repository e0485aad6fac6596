import type { TEncoding } from "./csv";
import type { Batch, RowCheckOptions } from "./prepare";

/** What the import's thread is started with. */
export interface ParseThreadInput extends RowCheckOptions {
  encoding: TEncoding;
  delimiter: string;
  /** Records per batch. */
  batchRows: number;
  /** The import's id when its batches are staged with COPY: each batch then carries its rows in COPY's text format (Batch.stageText). */
  stageImportId?: string;
}

/** Job -> thread: the file's next bytes (or its end), and "send the next batch". */
export type ToParseThread = { type: "bytes"; data: Uint8Array } | { type: "eof" } | { type: "next" };

/** Thread -> job: "I need bytes", a checked batch, the end (with the file's data row count), or a failure. */
export type FromParseThread =
  | { type: "read" }
  | { type: "batch"; batch: Batch }
  | { type: "done"; dataRows: number }
  | { type: "error"; message: string };
