/**
 * The import's thread (node:worker_threads): reads the kept file's bytes as the job hands them
 * over, decodes and parses the CSV and checks every row (prepare.ts), and hands back one batch at
 * a time. Everything here is CPU: none of it runs on the web server's event loop. The job asks
 * for the next batch as it starts writing one, so the thread reads ahead by one batch, no more.
 * Compiled into one module on first use (platform/thread-module.ts); it touches no database.
 */
import { parentPort, workerData } from "node:worker_threads";
import { csvBatches, decodeStream } from "./csv";
import type { FromParseThread, ParseThreadInput, ToParseThread } from "./parse-protocol";
import { rowChecker } from "./prepare";
import { stageText } from "./stage-rows";

const port = parentPort!;
const input = workerData as ParseThreadInput;
let onBytes: ((m: ToParseThread) => void) | null = null;
let onNext: (() => void) | null = null;
port.on("message", (m: ToParseThread) => {
  if (m.type === "next") {
    const go = onNext;
    onNext = null;
    go?.();
  } else {
    const take = onBytes;
    onBytes = null;
    take?.(m);
  }
});
const send = (m: FromParseThread) => port.postMessage(m);

async function* fileBytes(): AsyncGenerator<Uint8Array> {
  for (;;) {
    const m = await new Promise<ToParseThread>((resolve) => {
      onBytes = resolve;
      send({ type: "read" });
    });
    if (m.type !== "bytes") return;
    yield m.data;
  }
}

try {
  const checker = rowChecker(input);
  for await (const records of csvBatches(decodeStream(fileBytes(), input.encoding), input.delimiter, input.batchRows)) {
    const batch = checker.check(records);
    if (!batch) continue;
    if (input.stageImportId && batch.rows.length) batch.stageText = stageText(input.stageImportId, batch);
    const asked = new Promise<void>((resolve) => (onNext = resolve));
    send({ type: "batch", batch });
    await asked;
  }
  send({ type: "done", dataRows: checker.dataRows() });
} catch (error) {
  send({ type: "error", message: error instanceof Error ? error.message : String(error) });
}
