import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { drainJobs } from "@/test/jobs";
import { testClock } from "@/test/lifecycle-fixtures";
import { defineJobHandler, JobError } from "./handler";
import { claimJobs, type JobHandlers, runJob } from "./runner";
import { cancelJob, enqueueJob, getJob, jobView, listJobs } from "./service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const system = { kind: "system" as const, id: null, label: "test" };

/**
 * A job that writes `items` audit entries in batches of 10, each batch with its checkpoint in one
 * transaction; `crashAfterBatches` throws an unexpected error after that many batches of a run.
 */
function countingHandler(opts: { crashAfterBatches?: number; crashRuns?: number } = {}) {
  let runs = 0;
  return defineJobHandler({
    kind: "audit_run",
    input: z.object({ items: z.number().int().min(0) }),
    async run(run) {
      runs++;
      const start = (run.resumeFrom as { next?: number } | null)?.next ?? 0;
      let batches = 0;
      for (let i = start; i < run.input.items; i += 10) {
        const end = Math.min(run.input.items, i + 10);
        await run.db.$transaction(async (tx) => {
          await tx.auditLogEntry.createMany({
            data: Array.from({ length: end - i }, (_, k) => ({
              workspaceId: run.job.workspaceId,
              actorKind: "system" as const,
              actorLabel: "job",
              action: `item.${i + k}`,
            })),
          });
          await run.checkpoint(tx, { next: end }, end, run.input.items);
        });
        batches++;
        if (opts.crashAfterBatches !== undefined && batches === opts.crashAfterBatches && runs <= (opts.crashRuns ?? 1))
          throw new Error("worker died (simulated)");
      }
      return { written: run.input.items - start };
    },
  });
}

async function itemsWritten(workspaceId: string) {
  const rows = await prisma.auditLogEntry.findMany({
    where: { workspaceId, action: { startsWith: "item." } },
    select: { action: true },
  });
  return rows.map((r) => r.action);
}

describe("jobs", () => {
  it("runs a queued job to its result with progress, rate and the person who asked", async () => {
    const o = await createOwnerWorkspace(prisma);
    const queued = await enqueueJob(prisma, {
      workspaceId: o.workspaceId,
      kind: "audit_run",
      title: "Count to 35",
      input: { items: 35 },
      unit: "contacts",
      requestedBy: system,
    });
    expect(jobView(queued)).toMatchObject({
      status: "queued",
      progress: { done: 0, total: null, percent: null, unit: "contacts" },
      error: null,
    });
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId, handlers: { audit_run: countingHandler() } })).toEqual(
      ["succeeded"],
    );
    const done = await getJob(prisma, { workspaceId: o.workspaceId, jobId: queued.id });
    expect(done).toMatchObject({
      status: "succeeded",
      result: { written: 35 },
      progressDone: 35,
      progressTotal: 35,
      lockToken: null,
    });
    expect(jobView(done)).toMatchObject({
      status: "succeeded",
      progress: { percent: 100, secondsLeft: null },
      requestedBy: "test",
    });
    expect(jobView(done).progress.ratePerSecond).toBeGreaterThan(0);
    expect(new Set(await itemsWritten(o.workspaceId)).size).toBe(35);
  });

  it("after a crash mid-run, resumes from its last checkpoint: every item once, none twice", async () => {
    const o = await createOwnerWorkspace(prisma);
    const clock = testClock();
    const job = await enqueueJob(prisma, {
      workspaceId: o.workspaceId,
      kind: "audit_run",
      title: "Crashy",
      input: { items: 45 },
      unit: "contacts",
      requestedBy: system,
    });
    const handlers = { audit_run: countingHandler({ crashAfterBatches: 2 }) };
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId, handlers, now: clock.now })).toEqual(["retry"]);
    expect(await getJob(prisma, { workspaceId: o.workspaceId, jobId: job.id })).toMatchObject({
      status: "running",
      progressDone: 20,
      lockToken: null,
      lastError: "worker died (simulated)",
      error: null,
    });
    clock.advance(10_000);
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId, handlers, now: clock.now })).toEqual(["succeeded"]);
    const items = await itemsWritten(o.workspaceId);
    expect(items).toHaveLength(45);
    expect(new Set(items).size).toBe(45);
    expect(await getJob(prisma, { workspaceId: o.workspaceId, jobId: job.id })).toMatchObject({
      status: "succeeded",
      attempts: 2,
      result: { written: 25 },
    });
  });

  it("a worker whose lease ran out cannot commit; the worker that took over finishes the job", async () => {
    const o = await createOwnerWorkspace(prisma);
    const clock = testClock();
    const job = await enqueueJob(prisma, {
      workspaceId: o.workspaceId,
      kind: "audit_run",
      title: "Slow",
      input: { items: 20 },
      unit: "contacts",
      requestedBy: system,
    });
    const [first] = await claimJobs(prisma, { limit: 1, now: clock.now(), leaseMs: 1000, workspaceId: o.workspaceId });
    clock.advance(5000);
    const [second] = await claimJobs(prisma, { limit: 1, now: clock.now(), workspaceId: o.workspaceId });
    expect(second.id).toBe(job.id);
    const deps = {
      handlers: { audit_run: countingHandler() },
      clock: clock.now,
      leaseMs: 60_000,
      log: () => undefined,
    };
    expect(await runJob(prisma, first, deps)).toBe("lost");
    expect(await itemsWritten(o.workspaceId)).toHaveLength(0);
    expect(await runJob(prisma, second, deps)).toBe("succeeded");
    expect(await itemsWritten(o.workspaceId)).toHaveLength(20);
  });

  it("cancels a queued job at once and a running one at its next report, keeping what it committed", async () => {
    const o = await createOwnerWorkspace(prisma);
    const queued = await enqueueJob(prisma, {
      workspaceId: o.workspaceId,
      kind: "audit_run",
      title: "Never",
      input: { items: 10 },
      unit: "contacts",
      requestedBy: system,
    });
    expect(await cancelJob(prisma, { workspaceId: o.workspaceId, jobId: queued.id, actor: system })).toMatchObject({
      status: "cancelled",
    });
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId, handlers: { audit_run: countingHandler() } })).toEqual(
      [],
    );

    const running = await enqueueJob(prisma, {
      workspaceId: o.workspaceId,
      kind: "audit_run",
      title: "Stop me",
      input: { items: 50 },
      unit: "contacts",
      requestedBy: system,
    });
    const cancelling: JobHandlers = {
      audit_run: defineJobHandler({
        kind: "audit_run",
        input: z.object({ items: z.number() }),
        async run(run) {
          await run.db.$transaction(async (tx) => {
            await tx.auditLogEntry.create({
              data: { workspaceId: run.job.workspaceId, actorKind: "system", actorLabel: "job", action: "item.0" },
            });
            await run.checkpoint(tx, { next: 1 }, 1, 50);
          });
          await cancelJob(prisma, { workspaceId: o.workspaceId, jobId: run.job.id, actor: system });
          await run.progress(2, 50);
          throw new Error("not reached");
        },
      }),
    };
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId, handlers: cancelling })).toEqual(["cancelled"]);
    expect(await getJob(prisma, { workspaceId: o.workspaceId, jobId: running.id })).toMatchObject({
      status: "cancelled",
      progressDone: 1,
    });
    expect(await itemsWritten(o.workspaceId)).toEqual(["item.0"]);
    await expect(
      cancelJob(prisma, { workspaceId: o.workspaceId, jobId: running.id, actor: system }),
    ).rejects.toMatchObject({
      code: "invalid_state",
      message: "The job has already been cancelled; nothing to cancel.",
    });
  });

  it("a JobError fails at once with its sentence; an unexpected error is retried, then fails without revealing it", async () => {
    const o = await createOwnerWorkspace(prisma);
    const clock = testClock();
    const refused = await enqueueJob(prisma, {
      workspaceId: o.workspaceId,
      kind: "audit_run",
      title: "Bad file",
      input: {},
      unit: "rows",
      requestedBy: system,
    });
    const handlers: JobHandlers = {
      audit_run: defineJobHandler({
        kind: "audit_run",
        input: z.object({}),
        run: async () => {
          throw new JobError("The file is not a CSV file.");
        },
      }),
    };
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId, handlers, now: clock.now })).toEqual(["failed"]);
    expect(jobView(await getJob(prisma, { workspaceId: o.workspaceId, jobId: refused.id }))).toMatchObject({
      status: "failed",
      error: "The file is not a CSV file.",
    });

    const broken = await enqueueJob(prisma, {
      workspaceId: o.workspaceId,
      kind: "audit_run",
      title: "Broken",
      input: { items: 30 },
      unit: "rows",
      requestedBy: system,
    });
    const crashing = { audit_run: countingHandler({ crashAfterBatches: 1, crashRuns: 99 }) };
    const outcomes: string[] = [];
    for (let i = 0; i < 3; i++) {
      outcomes.push(...(await drainJobs(prisma, { workspaceId: o.workspaceId, handlers: crashing, now: clock.now })));
      clock.advance(600_000);
    }
    expect(outcomes).toEqual(["retry", "retry", "failed"]);
    const failed = await getJob(prisma, { workspaceId: o.workspaceId, jobId: broken.id });
    expect(failed.lastError).toBe("worker died (simulated)");
    expect(jobView(failed).error).toMatch(
      /^The job stopped on an unexpected error 3 times; what it finished is kept\./,
    );
    expect(jobView(failed).error).not.toContain("simulated");
    // Three runs, one committed batch each: the work done is kept and never repeated.
    expect(await itemsWritten(o.workspaceId)).toHaveLength(30);
  });

  it("another workspace's job is not found, cannot be cancelled, and its id is no cursor", async () => {
    const mine = await createOwnerWorkspace(prisma);
    const theirs = await createOwnerWorkspace(prisma);
    const job = await enqueueJob(prisma, {
      workspaceId: theirs.workspaceId,
      kind: "audit_run",
      title: "Theirs",
      input: { items: 1 },
      unit: "rows",
      requestedBy: system,
    });
    await expect(getJob(prisma, { workspaceId: mine.workspaceId, jobId: job.id })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(
      cancelJob(prisma, { workspaceId: mine.workspaceId, jobId: job.id, actor: system }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(listJobs(prisma, { workspaceId: mine.workspaceId, cursor: job.id, take: 10 })).rejects.toMatchObject({
      code: "not_found",
    });
    expect((await getJob(prisma, { workspaceId: theirs.workspaceId, jobId: job.id })).status).toBe("queued");
    expect((await listJobs(prisma, { workspaceId: mine.workspaceId, take: 10 })).jobs).toEqual([]);
  });

  it("concurrent claims never hand one job to two workers", async () => {
    const o = await createOwnerWorkspace(prisma);
    for (let i = 0; i < 12; i++)
      await enqueueJob(prisma, {
        workspaceId: o.workspaceId,
        kind: "audit_run",
        title: `Job ${i}`,
        input: { items: 0 },
        unit: "rows",
        requestedBy: system,
      });
    const now = new Date(Date.now() + 1000);
    const claims = await Promise.all(
      Array.from({ length: 6 }, () => claimJobs(prisma, { limit: 3, now, workspaceId: o.workspaceId })),
    );
    const ids = claims.flat().map((j) => j.id);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
  });
});
