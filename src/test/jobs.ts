import type { PrismaClient } from "@/generated/prisma/client";
import { jobHandlers } from "@/server/runtime/job-handlers";
import { claimJobs, type JobHandlers, runJob } from "@/server/records/jobs/runner";

/**
 * Runs the workspace's due jobs until none is left (as the worker would), with the real handlers
 * unless others are given. Returns how each run ended.
 */
export async function drainJobs(
  prisma: PrismaClient,
  p: { workspaceId: string; handlers?: JobHandlers; now?: () => Date; leaseMs?: number; maxRuns?: number },
) {
  const outcomes: string[] = [];
  const clock = p.now ?? (() => new Date());
  for (let i = 0; i < (p.maxRuns ?? 50); i++) {
    const [job] = await claimJobs(prisma, { limit: 1, now: clock(), workspaceId: p.workspaceId, leaseMs: p.leaseMs });
    if (!job) return outcomes;
    outcomes.push(
      await runJob(prisma, job, {
        handlers: p.handlers ?? jobHandlers,
        clock,
        leaseMs: p.leaseMs ?? 60_000,
        log: () => undefined,
      }),
    );
  }
  throw new Error(`jobs still running after ${p.maxRuns ?? 50} runs`);
}
