/**
 * The worker process that `npm start` runs beside the server on PostgreSQL: the lifecycle, the jobs
 * (imports, audits, drafts, CRM syncs), webhooks and the sandbox post run there, so a 50 MB import
 * or a render never holds up a request on the server's event loop. It is `npm run worker`, compiled
 * the same way (scripts/bundle.mjs) and started on plain Node. A worker that dies is started again
 * (after 1 s, then longer up to 30 s while it keeps dying at once); its events and jobs are taken
 * over when their leases expire, as for any worker. Stopping the server stops it with SIGTERM, so
 * it finishes what it holds first.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundle, WORKER_NODE_FLAGS, workerMallocEnv } from "./bundle.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Its own file name: a `npm run worker` started beside it recompiles .build/worker.mjs without touching this one. */
const SCRIPT = path.join(root, ".build", "server-worker.mjs");
const STOP_GRACE_MS = 30_000;

export interface WorkerProcess {
  /** SIGTERM, then waits for it to finish what it holds (SIGKILL after 30 s). */
  stop(): Promise<void>;
}

export async function startWorkerProcess(log: (line: string) => void): Promise<WorkerProcess> {
  await bundle("scripts/worker.ts", SCRIPT);
  let child: ChildProcess | null = null;
  let stopping = false;
  let delayMs = 1000;
  let timer: NodeJS.Timeout | undefined;

  const launch = () => {
    const startedAt = Date.now();
    const env: NodeJS.ProcessEnv = { ...process.env, ...workerMallocEnv() };
    delete env.WORKER;
    const proc = spawn(process.execPath, [...WORKER_NODE_FLAGS, SCRIPT], {
      cwd: root,
      env,
      stdio: ["ignore", "inherit", "inherit"],
    });
    child = proc;
    proc.once("exit", (code, signal) => {
      child = null;
      if (stopping) return;
      // A worker that ran a while starts again at once; one that keeps dying waits longer each time.
      delayMs = Date.now() - startedAt > 60_000 ? 1000 : Math.min(delayMs * 2, 30_000);
      log(
        `The worker process ${proc.pid} ended (${signal ?? `exit ${code}`}); starting another in ${Math.round(delayMs / 1000)} s.`,
      );
      timer = setTimeout(launch, delayMs);
    });
  };
  launch();
  // However this server ends, its worker does not outlive it.
  process.once("exit", () => child?.kill("SIGKILL"));

  return {
    stop() {
      stopping = true;
      clearTimeout(timer);
      const proc = child;
      if (!proc || proc.exitCode !== null) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const kill = setTimeout(() => proc.kill("SIGKILL"), STOP_GRACE_MS);
        proc.once("exit", () => (clearTimeout(kill), resolve()));
        proc.kill("SIGTERM");
      });
    },
  };
}
