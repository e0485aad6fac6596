/**
 * A thread (node:worker_threads) that applies the migrations to the PostgreSQL database at
 * workerData.url and ends (migrate.ts, applyMigrationsInThread). Prisma's schema engine, compiled
 * to WebAssembly, stays loaded in the isolate that used it; in a thread of its own, its memory goes
 * when the thread ends instead of staying with a long-running worker.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openDatabase } from "./database";
import { applyMigrations } from "./migrate";

const database = openDatabase({ kind: "postgres", url: (workerData as { url: string }).url });
try {
  parentPort!.postMessage({ applied: await applyMigrations(database.migrationAdapter()) });
} catch (error) {
  parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
// The calling thread ends this one on its answer; closing here only matters if it has not yet.
await database.close();
