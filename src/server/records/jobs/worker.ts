import type { PrismaClient } from "@/generated/prisma/client";
import { claimJobs, JOB_LEASE_MS, type JobHandlers, type JobRunnerDeps, runJob } from "./runner";
import { napper } from "@/server/ground/platform/nap";
import { onJobQueued } from "./wake";

export interface JobWorkerOptions {
  /** The handler of each job kind, registered by the composition root (runtime/job-handlers.ts). */
  handlers: JobHandlers;
  /** Jobs run at once by this worker (they are heavy: a CSV import, an audit, a render). */
  concurrency?: number;
  /** How often an idle worker looks for queued jobs. */
  pollMs?: number;
  deps?: Partial<JobRunnerDeps>;
}

export interface RunningJobWorker {
  stop(): Promise<void>;
}

/**
 * How jobs run, given the handlers: a domain that runs its own job within a request (an agent's
 * small import, an audit) passes its one handler; the worker gets every kind's from the root.
 */
export const jobDeps = (handlers: JobHandlers): JobRunnerDeps => ({
  handlers,
  clock: () => new Date(),
  leaseMs: JOB_LEASE_MS,
  log: (line, error) => (error ? console.error(`[jobs] ${line}`, error) : console.log(`[jobs] ${line}`)),
});

/**
 * The job worker: claims queued jobs from the database and runs them, `concurrency` at a time.
 * It runs beside the lifecycle worker: inside the server on the embedded database, and in every
 * `npm run worker` process on PostgreSQL.
 */
export function startJobWorker(prisma: PrismaClient, options: JobWorkerOptions): RunningJobWorker {
  const deps = { ...jobDeps(options.handlers), ...options.deps };
  const concurrency = options.concurrency ?? 1;
  const pollMs = options.pollMs ?? 1000;
  let stopping = false;
  const { nap, wake } = napper();
  const running = new Set<Promise<unknown>>();
  const unsubscribe = onJobQueued(wake);

  const loop = (async () => {
    while (!stopping) {
      try {
        const free = concurrency - running.size;
        if (free > 0) {
          const jobs = await claimJobs(prisma, { limit: free, now: deps.clock(), leaseMs: deps.leaseMs });
          for (const job of jobs) {
            const task = runJob(prisma, job, deps)
              .catch((error) => deps.log(`job ${job.id} could not be recorded`, error))
              .finally(() => {
                running.delete(task);
                wake();
              });
            running.add(task);
          }
        }
      } catch (error) {
        deps.log("job worker loop error", error);
      }
      await nap(pollMs);
    }
    await Promise.allSettled([...running]);
  })();

  return {
    async stop() {
      stopping = true;
      wake();
      unsubscribe();
      await loop;
    },
  };
}
