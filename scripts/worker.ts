/**
 * npm run worker: a standalone worker (entry-event lifecycle and jobs). Run any number of them
 * against one PostgreSQL (DATABASE_URL); each claims due entry events and queued jobs with FOR
 * UPDATE SKIP LOCKED. SIGTERM finishes the events and jobs in hand and exits; a killed worker's
 * events and jobs are taken over when their lease expires.
 * On the embedded database the worker runs inside the server instead (PGlite is single-process).
 */
import { runDataBackfills } from "@/server/records/contacts/rekey";
import { checkImportsOnEventLoop } from "@/server/programme/imports/check-placement";
import { tuneHeapGrowth } from "@/server/ground/platform/heap";
import { startWorkers } from "@/server/runtime/workers";
import { workerSettings } from "@/server/runtime/worker-settings";
import { baseUrl } from "@/server/ground/platform/base-url";
import { runCli } from "@/server/ground/platform/cli";
import { ConfigError } from "@/server/ground/platform/config";
import { applyMigrationsInThread } from "@/server/ground/platform/migrate";

await runCli(async (database) => {
  tuneHeapGrowth();
  // A bad WORKER_BATCH_SIZE, WORKER_LEASE_MS or JOB_CONCURRENCY stops the worker before it migrates anything.
  const settings = workerSettings();
  if (database.target.kind !== "postgres") {
    throw new ConfigError(
      "npm run worker needs DATABASE_URL: on the embedded database the worker runs inside the server (npm start).",
    );
  }
  // In a thread that ends: the schema engine's memory is not kept for the worker's lifetime.
  await applyMigrationsInThread(database.target.url);
  await runDataBackfills(database.prisma, (line) => console.error(line));
  // No web requests here: an import's file is checked on the event loop, without a thread's heap.
  checkImportsOnEventLoop();
  const worker = startWorkers(database.prisma, settings);
  console.error(`Worker ${process.pid} running (lifecycle and jobs); response links point to ${baseUrl()}.`);
  await new Promise<void>((resolve) => {
    const stop = () => void worker.stop().then(resolve);
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  });
  console.error(`Worker ${process.pid} stopped.`);
});
