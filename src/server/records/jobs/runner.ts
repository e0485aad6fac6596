import { randomUUID } from "node:crypto";
import type { JobKind, Prisma, PrismaClient } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { type JobHandler, JobCancelled, JobError, jobInput, JobLeaseLost, type JobRun } from "./handler";
import type { JobRow } from "./schema";

/** How long a claim lasts without a progress report; a crashed worker's job is taken over after it. */
export const JOB_LEASE_MS = 60_000;
/** Runs that end in an unexpected error before the job is given up as failed. */
export const MAX_JOB_ATTEMPTS = 3;
/** Backoff before retrying after an unexpected error: 5, 10, 20 ... seconds. */
export const jobBackoffMs = (attempt: number) => Math.min(300_000, 5_000 * 2 ** (attempt - 1));

export type JobHandlers = Partial<Record<JobKind, JobHandler>>;

export interface JobRunnerDeps {
  handlers: JobHandlers;
  clock: () => Date;
  leaseMs: number;
  log: (line: string, error?: unknown) => void;
}

/**
 * Claims up to `limit` due jobs: FOR UPDATE SKIP LOCKED, so concurrent workers never take the
 * same job, and a job whose worker died is taken over once its lease has run out.
 */
export async function claimJobs(
  prisma: PrismaClient,
  p: { limit: number; now: Date; leaseMs?: number; workspaceId?: string },
): Promise<JobRow[]> {
  const token = randomUUID();
  const until = new Date(p.now.getTime() + (p.leaseMs ?? JOB_LEASE_MS));
  const claimed = await prisma.$queryRaw<{ id: string }[]>`
    UPDATE "Job"
       SET "lockToken" = ${token}, "lockedUntil" = ${until}, attempts = attempts + 1, status = 'running',
           "startedAt" = COALESCE("startedAt", ${p.now}), "updatedAt" = now()
     WHERE id IN (
       SELECT id FROM "Job"
        WHERE status IN ('queued', 'running') AND "runAfter" <= ${p.now}
          AND ("lockedUntil" IS NULL OR "lockedUntil" < ${p.now})
          AND (${p.workspaceId ?? null}::text IS NULL OR "workspaceId" = ${p.workspaceId ?? null})
        ORDER BY "runAfter", "createdAt"
        LIMIT ${p.limit}
        FOR UPDATE SKIP LOCKED)
    RETURNING id`;
  if (claimed.length === 0) return [];
  return prisma.job.findMany({ where: { id: { in: claimed.map((c) => c.id) } }, orderBy: { createdAt: "asc" } });
}

/**
 * Claims one queued job by its id, when no worker holds it yet: to run a small job inside the
 * request that queued it (a short agent import answers with its report). Null when a worker got it first.
 */
export async function claimJob(
  prisma: PrismaClient,
  p: { jobId: string; workspaceId: string; now: Date; leaseMs?: number },
): Promise<JobRow | null> {
  const token = randomUUID();
  const until = new Date(p.now.getTime() + (p.leaseMs ?? JOB_LEASE_MS));
  const claimed = await prisma.$queryRaw<{ id: string }[]>`
    UPDATE "Job"
       SET "lockToken" = ${token}, "lockedUntil" = ${until}, attempts = attempts + 1, status = 'running',
           "startedAt" = COALESCE("startedAt", ${p.now}), "updatedAt" = now()
     WHERE id = (SELECT id FROM "Job" WHERE id = ${p.jobId} AND "workspaceId" = ${p.workspaceId} AND status = 'queued' AND "lockToken" IS NULL FOR UPDATE SKIP LOCKED)
    RETURNING id`;
  return claimed.length ? prisma.job.findUnique({ where: { id: p.jobId } }) : null;
}

/** Ends a claimed job, if this worker still holds it. */
async function finish(db: Db, job: JobRow, data: Prisma.JobUpdateManyMutationInput): Promise<boolean> {
  const done = await db.job.updateMany({
    where: { id: job.id, lockToken: job.lockToken },
    data: { ...data, lockToken: null, lockedUntil: null },
  });
  return done.count === 1;
}

/**
 * Runs one claimed job to its end: succeeded with the handler's result, failed with the
 * handler's sentence (JobError), cancelled, or, after an unexpected error, retried with backoff
 * until MAX_JOB_ATTEMPTS, then failed with a sentence that reveals nothing internal.
 */
export async function runJob(
  prisma: PrismaClient,
  job: JobRow,
  deps: JobRunnerDeps,
): Promise<"succeeded" | "failed" | "cancelled" | "retry" | "lost"> {
  const now = deps.clock;
  if (job.cancelRequestedAt) {
    await finish(prisma, job, { status: "cancelled", finishedAt: now() });
    return "cancelled";
  }
  const handler = deps.handlers[job.kind];
  try {
    if (!handler) throw new JobError(`This service cannot run ${job.kind} jobs.`);
    const input = jobInput(handler, job.input);
    const lease = () => new Date(now().getTime() + deps.leaseMs);
    const report = async (db: Db, data: Prisma.JobUpdateManyMutationInput) => {
      const updated = await db.job.updateMany({
        where: { id: job.id, lockToken: job.lockToken, cancelRequestedAt: null },
        data: { ...data, lockedUntil: lease() },
      });
      if (updated.count === 1) return;
      const current = await db.job.findUnique({ where: { id: job.id }, select: { lockToken: true } });
      throw current?.lockToken === job.lockToken ? new JobCancelled() : new JobLeaseLost();
    };
    const run: JobRun<unknown> = {
      db: prisma,
      job,
      input,
      resumeFrom: job.checkpoint ?? null,
      now,
      progress: (done, total) =>
        report(prisma, { progressDone: done, ...(total !== undefined ? { progressTotal: total } : {}) }),
      checkpoint: (tx, checkpoint, done, total) =>
        report(tx, { checkpoint, progressDone: done, ...(total !== undefined ? { progressTotal: total } : {}) }),
    };
    const result = await handler.run(run);
    const ok = await finish(prisma, job, { status: "succeeded", result, finishedAt: now(), error: null });
    return ok ? "succeeded" : "lost";
  } catch (error) {
    if (error instanceof JobLeaseLost) return "lost";
    if (error instanceof JobCancelled) {
      await finish(prisma, job, { status: "cancelled", finishedAt: now() });
      return "cancelled";
    }
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof JobError) {
      await finish(prisma, job, { status: "failed", error: message.slice(0, 1000), finishedAt: now() });
      return "failed";
    }
    deps.log(`job ${job.id} (${job.kind}) attempt ${job.attempts} failed: ${message}`, error);
    if (job.attempts >= MAX_JOB_ATTEMPTS) {
      await finish(prisma, job, {
        status: "failed",
        error: `The job stopped on an unexpected error ${MAX_JOB_ATTEMPTS} times; what it finished is kept. Start it again, or tell us if it keeps failing.`,
        lastError: message.slice(0, 2000),
        finishedAt: now(),
      });
      return "failed";
    }
    await finish(prisma, job, {
      lastError: message.slice(0, 2000),
      runAfter: new Date(now().getTime() + jobBackoffMs(job.attempts)),
    });
    return "retry";
  }
}
