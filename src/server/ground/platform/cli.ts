import { databaseTarget, describeTarget } from "./config";
import { type Database, openDatabase } from "./database";
import { describeStartupError } from "./startup-error";

/**
 * Runs a command-line task (migrate, seed, worker) against the configured database. Logs go to
 * stderr; a configuration problem ends the process with one sentence and exit code 1.
 */
export async function runCli(task: (database: Database) => Promise<void>): Promise<never> {
  let target: ReturnType<typeof databaseTarget> | undefined;
  let database: Database | undefined;
  // Kept here, not in process.exitCode: closing PGlite (an Emscripten program) resets that to 0.
  let exitCode = 0;
  try {
    target = databaseTarget();
    database = openDatabase(target);
    console.error(`Database: ${describeTarget(target)}`);
    await task(database);
  } catch (error) {
    const sentence = describeStartupError(error, target);
    if (!sentence) throw error;
    console.error(sentence);
    exitCode = 1;
  } finally {
    await database?.close().catch(() => {});
  }
  // The WASM schema engine keeps handles open after a migration; a finished command exits.
  process.exit(exitCode);
}
