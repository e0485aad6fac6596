/**
 * Worker processes for the benchmarks, compiled and started as `npm run worker` compiles and
 * starts them (package.json): scripts/bundle.mjs, then plain Node with two malloc arenas.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { bundle, WORKER_NODE_FLAGS, workerMallocEnv } from "../bundle.mjs";

const WORKER_SCRIPT = path.resolve(".build/worker.mjs");

/** Compiles the worker once; every startWorker after it runs that module. */
export const compileWorker = () => bundle("scripts/worker.ts", WORKER_SCRIPT);

/**
 * Starts one worker on the database at `url` and resolves once it says it runs (rejects if it
 * exits first or is not running within a minute). With `echo`, what it says after that (a failed
 * job, say) is shown as it says it.
 */
export function startWorker(
  url: string,
  o: { env?: Record<string, string>; nodeFlags?: string[]; echo?: boolean } = {},
): Promise<ChildProcess> {
  const env = { ...process.env, DATABASE_URL: url, ...workerMallocEnv(), ...o.env };
  const child = spawn(process.execPath, [...(o.nodeFlags ?? []), ...WORKER_NODE_FLAGS, WORKER_SCRIPT], {
    stdio: ["ignore", "ignore", "pipe"],
    env,
  });
  return new Promise((resolve, reject) => {
    let err = "";
    let running = false;
    const timer = setTimeout(
      () => (child.kill("SIGKILL"), reject(new Error(`a worker did not start within a minute: ${err}`))),
      60_000,
    );
    child.stderr!.on("data", (d: Buffer) => {
      if (running) return void (o.echo && !/Worker \d+ stopped/.test(String(d)) && process.stderr.write(d));
      err += d;
      if (/Worker \d+ running/.test(err)) {
        running = true;
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once("exit", (code) => (clearTimeout(timer), reject(new Error(`a worker exited with ${code}: ${err}`))));
  });
}

/** Stops a worker with SIGTERM (it finishes what it holds) and resolves once it has exited. */
export const stopWorker = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null ? resolve() : (child.once("exit", () => resolve()), child.kill("SIGTERM")),
  );
