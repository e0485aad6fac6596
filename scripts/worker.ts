/**
 * npm run worker: a standalone lifecycle worker. Run any number of them against one PostgreSQL
 * (DATABASE_URL); each claims due entry events with FOR UPDATE SKIP LOCKED. SIGTERM finishes the
 * events in hand and exits; a killed worker's events are taken over when their lease expires.
 * On the embedded database the worker runs inside the server instead (PGlite is single-process).
 */
import { startLifecycleWorker } from "@/server/entry/lifecycle/worker";
import { baseUrl } from "@/server/platform/base-url";
import { runCli } from "@/server/platform/cli";
import { ConfigError } from "@/server/platform/config";
import { applyMigrations } from "@/server/platform/migrate";

await runCli(async (database) => {
  if (database.target.kind !== "postgres") {
    throw new ConfigError("npm run worker needs DATABASE_URL: on the embedded database the worker runs inside the server (npm start).");
  }
  await applyMigrations(database.migrationAdapter());
  const worker = startLifecycleWorker(database.prisma, {
    concurrency: Number(process.env.WORKER_CONCURRENCY ?? 4),
    leaseMs: process.env.WORKER_LEASE_MS ? Number(process.env.WORKER_LEASE_MS) : undefined,
  });
  console.error(`Lifecycle worker ${process.pid} running; response links point to ${baseUrl()}.`);
  await new Promise<void>((resolve) => {
    const stop = () => void worker.stop().then(resolve);
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  });
  console.error(`Lifecycle worker ${process.pid} stopped.`);
});
