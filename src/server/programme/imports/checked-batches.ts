import { Worker } from "node:worker_threads";
import type { PrismaClient } from "@/generated/prisma/client";
import { threadModule } from "@/server/ground/platform/thread-module";
import { importsCheckedOnEventLoop } from "./check-placement";
import { csvBatches } from "./csv";
import type { FromParseThread, ParseThreadInput } from "./parse-protocol";
import { type Batch, rowChecker } from "./prepare";
import { storedFile, storedText } from "./upload";

/**
 * In a process that serves web requests, files from this size on are read and checked in a thread
 * of their own; smaller ones (an agent's few hundred rows) in the job itself, a slice of rows
 * between turns of the event loop, where starting a thread would cost more than the reading.
 * IMPORT_THREAD_MIN_BYTES changes it (0: always a thread). `npm run worker` uses no thread.
 */
export function threadMinBytes(): number {
  const n = Number(process.env.IMPORT_THREAD_MIN_BYTES ?? 256 * 1024);
  return Number.isFinite(n) && n >= 0 ? n : 256 * 1024;
}

/** The import thread's heap limit: a file that would need more fails its job, never the server. */
const THREAD_HEAP_MB = 512;
/**
 * The import thread's young generation, where each batch's short-lived rows are made. V8's own
 * choice is 16 MB semi-spaces (48 MB in all); the thread holds one batch at a time, and this
 * bound keeps its resident memory down for a little more scavenging (see WORKER_NODE_FLAGS in
 * scripts/bundle.mjs for the worker's own).
 */
const THREAD_YOUNG_MB = 24;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface CheckedFile {
  batches: AsyncGenerator<Batch>;
  /** The file's data rows, once `batches` has ended. */
  dataRows(): number;
}

/** Rows checked between two turns of the event loop. */
const SLICE_ROWS = 100;

/**
 * The kept file of an import, read and checked a batch at a time (prepare.ts): in a worker thread
 * for a file of `threadMinBytes()` or more in a process that serves the web (the jobs may run
 * inside the server, and always do on the embedded database), so that parsing and checking 200,000
 * rows never holds its event loop; otherwise in the job itself, a slice at a time. `npm run worker`
 * serves no requests, and there a thread would only cost a second V8 heap and young generation
 * (45 to 65 MB at the peak of a 100,000-row import) and a copy of every batch from its heap into
 * the job's (check-placement.ts).
 */
export function checkedBatches(
  prisma: PrismaClient,
  importId: string,
  input: ParseThreadInput & { byteSize: number },
): CheckedFile {
  return input.byteSize >= threadMinBytes() && !importsCheckedOnEventLoop()
    ? inThread(prisma, importId, input)
    : inline(prisma, importId, input);
}

/**
 * Reads and checks the file in the job, `SLICE_ROWS` rows between turns of the event loop, one
 * batch ahead: the next batch is read and checked while the job writes the one before (the
 * database's work and Node's overlap, as with the thread).
 */
function inline(prisma: PrismaClient, importId: string, input: ParseThreadInput): CheckedFile {
  const checker = rowChecker(input);
  async function* batches(): AsyncGenerator<Batch> {
    const source = csvBatches(storedText(prisma, importId, input.encoding), input.delimiter, input.batchRows);
    /** The next batch checked; null when an earlier run wrote all of it; undefined at the end of the file. */
    const checkNext = async (): Promise<Batch | null | undefined> => {
      const next = await source.next();
      if (next.done) return undefined;
      const records = next.value;
      const batch = checker.begin();
      for (let from = 0; from < records.length; from += SLICE_ROWS) {
        checker.add(batch, records, from, Math.min(from + SLICE_ROWS, records.length));
        await turn();
      }
      return checker.end(batch);
    };
    let ahead = checkNext();
    try {
      for (;;) {
        const batch = await ahead;
        if (batch === undefined) return;
        ahead = checkNext();
        // Awaited at the next turn of this loop, or in `finally` when the job stops first.
        ahead.catch(() => {});
        if (batch) yield batch;
      }
    } finally {
      await ahead.catch(() => {});
      await source.return(undefined);
    }
  }
  return { batches: batches(), dataRows: checker.dataRows };
}

function inThread(prisma: PrismaClient, importId: string, input: ParseThreadInput): CheckedFile {
  let dataRows = 0;
  async function* batches(): AsyncGenerator<Batch> {
    const file = storedFile(prisma, importId);
    const worker = new Worker(
      await threadModule("src/server/programme/imports/parse-thread.ts", "import-parse-thread"),
      {
        workerData: input,
        resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB, maxYoungGenerationSizeMb: THREAD_YOUNG_MB },
        stdout: false,
        stderr: false,
      },
    );
    const inbox: FromParseThread[] = [];
    let failure: Error | null = null;
    let finished = false;
    let wake: (() => void) | null = null;
    const notify = () => {
      const w = wake;
      wake = null;
      w?.();
    };
    const fail = (error: Error) => {
      failure ??= error;
      notify();
    };
    worker.on("message", (m: FromParseThread) => {
      if (m.type === "read") {
        // The file's next piece, copied into a buffer of its own and handed over (not cloned).
        file.next().then(
          (next) => {
            if (next.done) return worker.postMessage({ type: "eof" });
            // A copy of its own: on PostgreSQL the piece is a Buffer, whose slice() is a view of
            // the whole piece, and handing that over would empty the piece's other 64 KB views.
            const data = new Uint8Array(next.value);
            worker.postMessage({ type: "bytes", data }, [data.buffer]);
          },
          (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
        );
        return;
      }
      inbox.push(m);
      notify();
    });
    worker.on("error", (error) =>
      fail(
        error.message.includes("out of memory") || (error as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY"
          ? new Error(`the import's thread ran out of memory (${THREAD_HEAP_MB} MB)`)
          : error,
      ),
    );
    worker.on("exit", (code) => {
      if (!finished) fail(new Error(`the import's thread stopped (exit code ${code}) before the file was read`));
    });
    try {
      for (;;) {
        const m = inbox.shift();
        if (!m) {
          if (failure) throw failure;
          await new Promise<void>((resolve) => {
            wake = resolve;
            if (inbox.length || failure) notify();
          });
          continue;
        }
        if (m.type === "error") throw new Error(`the import's thread failed: ${m.message}`);
        if (m.type === "done") {
          finished = true;
          dataRows = m.dataRows;
          return;
        }
        if (m.type === "batch") {
          // The thread reads the next batch while this one is written.
          worker.postMessage({ type: "next" });
          yield m.batch;
        }
      }
    } finally {
      finished = true;
      await worker.terminate();
      await file.return(undefined);
    }
  }
  return { batches: batches(), dataRows: () => dataRows };
}
