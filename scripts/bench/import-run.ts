/**
 * One import in a process of its own, as a worker runs it (bench:import starts it): uploads the
 * file into the database, starts the import and runs the contacts_import job here. Prints one JSON
 * line: the times, the report and this process's peak resident memory.
 */
import fs from "node:fs";
import path from "node:path";
import type { Actor } from "@/server/audit/service";
import { runImportNow, startImport } from "@/server/imports/service";
import { receiveUpload } from "@/server/imports/upload";
import { openDatabase } from "@/server/platform/database";
import { tuneHeapGrowth } from "@/server/platform/heap";

const [url, workspaceId, file] = process.argv.slice(2);
// As in a worker process (scripts/worker.ts).
tuneHeapGrowth();
const actor: Actor = { kind: "system", id: null, label: "bench" };
const database = openDatabase({ kind: "postgres", url });
const prisma = database.prisma;
let peak = process.memoryUsage().rss;
let heapPeak = 0;
let samples = 0;
const timer = setInterval(() => {
  const m = process.memoryUsage();
  peak = Math.max(peak, m.rss);
  heapPeak = Math.max(heapPeak, m.heapUsed + m.external);
  // BENCH_MEMORY_TRACE=1: where the memory is, twice a second (to stderr).
  if (process.env.BENCH_MEMORY_TRACE && samples++ % 25 === 0) {
    const mb = (n: number) => `${Math.round(n / 1024 / 1024)}`;
    process.stderr.write(`[memory] rss ${mb(m.rss)} heap ${mb(m.heapUsed)}/${mb(m.heapTotal)} external ${mb(m.external)} arrayBuffers ${mb(m.arrayBuffers)} MB\n`);
  }
}, 20);
const startRss = process.memoryUsage().rss;
const t0 = performance.now();
const upload = await receiveUpload(prisma, { workspaceId, fileName: path.basename(file), body: fs.createReadStream(file, { highWaterMark: 256 * 1024 }), actor });
const t1 = performance.now();
const uploadPeak = peak;
const started = await startImport(prisma, { workspaceId, importId: upload.importId, mapping: upload.suggestedMapping, onExisting: "update", audienceName: "Bench import", actor });
const view = await runImportNow(prisma, { workspaceId, importId: upload.importId, jobId: started.job!.jobId });
const t2 = performance.now();
clearInterval(timer);
await database.close();
process.stdout.write(
  `${JSON.stringify({
    uploadSeconds: (t1 - t0) / 1000,
    jobSeconds: (t2 - t1) / 1000,
    seconds: (t2 - t0) / 1000,
    startRssMb: startRss / 1024 / 1024,
    peakRssMb: Math.max(peak, process.resourceUsage().maxRSS * 1024) / 1024 / 1024,
    uploadPeakRssMb: uploadPeak / 1024 / 1024,
    heapPeakMb: heapPeak / 1024 / 1024,
    view: { status: view.status, created: view.created, updated: view.updated, skipped: view.skipped, refused: view.refusedCount, error: view.job?.error ?? null },
  })}\n`,
);
