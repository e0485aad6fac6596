import type { JobKind, JobStatus, Prisma } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { FINISHED_STATUSES, type JobRow, type TJobView } from "./schema";
import { signalJobQueued } from "./wake";

export interface NewJob {
  workspaceId: string;
  kind: JobKind;
  title: string;
  input: Prisma.InputJsonValue;
  /** What progress counts: rows, contacts, drafts, objects. */
  unit: string;
  total?: number | null;
  requestedBy: Actor;
}

/**
 * Queues a job (in the caller's transaction when given one, so the domain record that names the
 * job and the job itself appear together). The worker picks it up; on this process at once.
 */
export async function enqueueJob(db: Db, job: NewJob): Promise<JobRow> {
  const created = await db.job.create({
    data: {
      workspaceId: job.workspaceId,
      kind: job.kind,
      title: job.title.slice(0, 200),
      input: job.input,
      unit: job.unit,
      progressTotal: job.total ?? null,
      requestedByKind: job.requestedBy.kind,
      requestedById: job.requestedBy.id,
      requestedByLabel: job.requestedBy.label,
    },
  });
  // Wakes the in-process worker (after the caller's transaction has most likely committed; if not,
  // the next poll finds it); a worker in another process finds it at its next poll.
  setTimeout(signalJobQueued, 25);
  return created;
}

/** A job of this workspace (another workspace's job is not found, like a missing one). */
export async function getJob(db: Db, p: { workspaceId: string; jobId: string; kind?: JobKind }): Promise<JobRow> {
  const job = await db.job.findFirst({
    where: { id: p.jobId, workspaceId: p.workspaceId, ...(p.kind ? { kind: p.kind } : {}) },
  });
  if (!job) throw new AppError("not_found", "No such job in this workspace.");
  return job;
}

/** The workspace's jobs, newest first, a page at a time. */
export async function listJobs(
  db: Db,
  p: { workspaceId: string; kind?: JobKind; status?: JobStatus; cursor?: string | null; take: number },
) {
  if (
    p.cursor &&
    !(await db.job.findFirst({ where: { id: p.cursor, workspaceId: p.workspaceId }, select: { id: true } }))
  ) {
    throw new AppError("not_found", "The cursor does not name a job of this workspace; start again without it.");
  }
  const rows = await db.job.findMany({
    where: {
      workspaceId: p.workspaceId,
      ...(p.kind ? { kind: p.kind } : {}),
      ...(p.status ? { status: p.status } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: p.take + 1,
    ...(p.cursor ? { cursor: { id: p.cursor }, skip: 1 } : {}),
  });
  const page = rows.slice(0, p.take);
  return { jobs: page, nextCursor: rows.length > p.take ? page[page.length - 1].id : null };
}

/**
 * Asks a job to stop. A queued job is cancelled at once; a running one stops at its next
 * progress report, keeping the batches it already committed. A finished job is left as it is.
 */
export async function cancelJob(
  db: Db,
  p: { workspaceId: string; jobId: string; actor: Actor; now?: Date },
): Promise<JobRow> {
  const now = p.now ?? new Date();
  const job = await getJob(db, p);
  if (FINISHED_STATUSES.has(job.status))
    throw new AppError(
      "invalid_state",
      `The job has already ${job.status === "succeeded" ? "finished" : job.status === "failed" ? "failed" : "been cancelled"}; nothing to cancel.`,
    );
  const queued = await db.job.updateMany({
    where: { id: job.id, workspaceId: p.workspaceId, status: "queued", lockToken: null },
    data: { status: "cancelled", cancelRequestedAt: now, finishedAt: now },
  });
  if (queued.count === 0) {
    await db.job.updateMany({
      where: { id: job.id, workspaceId: p.workspaceId, status: { in: ["queued", "running"] } },
      data: { cancelRequestedAt: now },
    });
  }
  await recordAudit(
    db,
    p.workspaceId,
    p.actor,
    "job.cancel_requested",
    { type: "job", id: job.id },
    { kind: job.kind },
  );
  return getJob(db, p);
}

/** A job as people and agents see it (rate since it started, time left while running). */
export function jobView(job: JobRow, now = new Date()): TJobView {
  const total = job.progressTotal;
  const done = job.progressDone;
  const elapsedS = job.startedAt
    ? Math.max(0.001, ((job.finishedAt ?? now).getTime() - job.startedAt.getTime()) / 1000)
    : null;
  const rate = elapsedS && done > 0 ? Math.round((done / elapsedS) * 10) / 10 : null;
  const left = job.status === "running" && rate && total != null ? Math.max(0, Math.ceil((total - done) / rate)) : null;
  return {
    jobId: job.id,
    kind: job.kind,
    title: job.title,
    status: job.status,
    progress: {
      done,
      total,
      unit: job.unit,
      percent: total ? Math.min(100, Math.round((done / total) * 1000) / 10) : total === 0 ? 100 : null,
      ratePerSecond: rate,
      secondsLeft: left,
    },
    error: job.status === "failed" ? (job.error ?? "The job failed.") : null,
    cancelRequested: job.cancelRequestedAt != null,
    requestedBy: job.requestedByLabel,
    createdAt: job.createdAt.toISOString(),
    startedAt: job.startedAt?.toISOString() ?? null,
    finishedAt: job.finishedAt?.toISOString() ?? null,
  };
}
