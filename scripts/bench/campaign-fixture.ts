/**
 * What the lifecycle benchmarks share (bench:lifecycle, bench:send): a campaign of many new
 * contacts with its drafts rendered, entry events accepted, worker processes, and the reference
 * that makes the lifecycle's state changes in one SQL statement.
 */
import type { ChildProcess } from "node:child_process";
import type { Prisma, PrismaClient } from "@/generated/prisma/client";
import { goLive } from "@/server/programme/campaigns/service";
import { requestDraftGeneration } from "@/server/programme/drafts/service";
import { acceptEntryEvent } from "@/server/programme/entry/service";
import { drainJobs } from "@/test/jobs";
import { backendCpuDelta, backendCpuSeconds, processCpuSeconds } from "./cpu-time";
import { POSTGRES_BATCH } from "@/server/runtime/worker-settings";
import { startWorker, stopWorker } from "./workers";

/** The workers' batch: WORKER_BATCH_SIZE, else a worker's own default on PostgreSQL. */
export const BATCH = process.env.WORKER_BATCH_SIZE ?? String(POSTGRES_BATCH);
const BENCH_ACTOR = { kind: "system" as const, id: null, label: "bench" };

/** A live postcard campaign for `contacts` new contacts (five per account), their drafts rendered before it went live. */
export async function bigCampaign(
  prisma: PrismaClient,
  workspaceId: string,
  contacts: number,
  label: string,
  opts: { campaign?: Partial<Prisma.CampaignUncheckedCreateInput>; goLive?: boolean } = {},
) {
  const audience = await prisma.audience.create({ data: { workspaceId, name: `bench ${label}` } });
  const accounts = await prisma.account.createManyAndReturn({
    data: Array.from({ length: Math.ceil(contacts / 5) }, (_, i) => ({
      workspaceId,
      name: `Bench ${label} ${i}`,
      domain: `bench-${label}-${i}.example`,
    })),
    select: { id: true },
  });
  const rows = await prisma.contact.createManyAndReturn({
    data: Array.from({ length: contacts }, (_, i) => ({
      workspaceId,
      accountId: accounts[Math.floor(i / 5)].id,
      firstName: `Pat${i}`,
      lastName: `Bench${label}`,
      email: `pat${i}@bench-${label}-${Math.floor(i / 5)}.example`,
      addressLine1: `${100 + i} Main St`,
      city: "Boston",
      region: "MA",
      postalCode: "02116",
      country: "US",
      addressStatus: "deliverable" as const,
    })),
    select: { id: true },
  });
  await prisma.audienceMember.createMany({
    data: rows.map((c) => ({ audienceId: audience.id, contactId: c.id, workspaceId })),
  });
  const contract = await prisma.fulfilmentContract.create({
    data: { workspaceId, name: `bench ${label}`, format: "postcard", unitCostCents: 100, status: "approved" },
  });
  const campaign = await prisma.campaign.create({
    data: {
      workspaceId,
      name: `Bench ${label}`,
      format: "postcard",
      status: "draft",
      acceptsApiEvents: true,
      audienceId: audience.id,
      holdoutShare: 0,
      budgetCents: 100_000_000,
      fulfilmentContractId: contract.id,
      destinationUrl: "https://bench.example/hi",
      headline: "{{firstName}}, hello",
      bodyTemplate: "Hi {{firstName}} at {{company}}, this is a benchmark postcard.",
      signOff: "Bench",
      ...opts.campaign,
    },
  });
  const rendering = performance.now();
  await requestDraftGeneration(prisma, { workspaceId, campaignId: campaign.id, actor: BENCH_ACTOR });
  await drainJobs(prisma, { workspaceId, maxRuns: 10_000 });
  const renderSeconds = (performance.now() - rendering) / 1000;
  if (opts.goLive !== false) await goLive(prisma, { workspaceId, campaignId: campaign.id, actor: BENCH_ACTOR });
  return { campaign, contactIds: rows.map((r) => r.id), renderSeconds };
}

export async function accept(prisma: PrismaClient, workspaceId: string, campaignId: string, contactIds: string[]) {
  for (let i = 0; i < contactIds.length; i += 50) {
    await Promise.all(
      contactIds.slice(i, i + 50).map((contactId) =>
        acceptEntryEvent(prisma, {
          workspaceId,
          apiKeyId: null,
          source: "api",
          input: { campaignId, contactId, idempotencyKey: `b-${campaignId}-${contactId}` },
        }),
      ),
    );
  }
}

/** Starts `count` worker processes, as `npm run worker` does, and resolves once each says it runs (BENCH_WORKER_FLAGS: Node flags for them, e.g. --cpu-prof; BENCH_WORKER_ECHO=1: what they log). */
export const startWorkers = (count: number, url: string) =>
  Promise.all(
    Array.from({ length: count }, () =>
      startWorker(url, {
        env: { WORKER_BATCH_SIZE: BATCH },
        echo: !!process.env.BENCH_WORKER_ECHO,
        nodeFlags: process.env.BENCH_WORKER_FLAGS?.split(" ").filter(Boolean),
      }),
    ),
  );
export const stopWorkers = (workers: ChildProcess[]) => Promise.all(workers.map(stopWorker));

/** CPU used so far by the workers and by the PostgreSQL backends of the benchmark's database. */
export interface CpuReading {
  workers: number;
  backends: Map<number, number>;
}
export const readCpu = async (prisma: PrismaClient, workers: ChildProcess[] = []): Promise<CpuReading> => ({
  workers: workers.reduce((sum, w) => sum + processCpuSeconds(w.pid), 0),
  backends: await backendCpuSeconds(prisma),
});
/** Seconds of CPU between two readings: the workers' and PostgreSQL's (the benchmark's own polling included). */
export const cpuBetween = (a: CpuReading, b: CpuReading) => ({
  workers: b.workers - a.workers,
  database: backendCpuDelta(a.backends, b.backends),
});
/** Milliseconds of CPU per event, as printed. */
export const msPer = (seconds: number, events: number) => ((seconds * 1000) / Math.max(1, events)).toFixed(2);

/**
 * Whether any event of the campaign is still open: one probe of the (campaignId, status) index that
 * stops at the first. Counting them instead read every event of the campaign ten times a second (at
 * 50,000 events, a good part of what PostgreSQL's CPU per event then showed).
 */
export const anyOpen = async (prisma: PrismaClient, campaignId: string) =>
  (await prisma.entryEvent.findFirst({
    where: { campaignId, status: { in: ["accepted", "processing", "waiting", "enrolled"] } },
    select: { id: true },
  })) !== null;

/** Whether any event of the database is due or in a worker's hands (the claim's open statuses, run-after passed). */
export const anyDue = async (prisma: PrismaClient) =>
  (
    await prisma.$queryRaw<unknown[]>`
      SELECT 1 FROM unnest(ARRAY['accepted', 'processing', 'waiting', 'enrolled']::"EntryEventStatus"[]) AS open(status)
       WHERE EXISTS (SELECT 1 FROM "EntryEvent" e WHERE e.status = open.status AND e."runAfter" <= timezone('UTC', now()))`
  ).length > 0;

/**
 * Waits until every event of the campaign is terminal. With BENCH_WAITS=1 it samples what the
 * workers' connections do every 100 ms and prints the most frequent (lock waits show where workers
 * serialise; "cpu" is work).
 */
export async function untilTerminal(prisma: PrismaClient, campaignId: string) {
  const waits = new Map<string, number>();
  let samples = 0;
  while (await anyOpen(prisma, campaignId)) {
    if (process.env.BENCH_WAITS) {
      const rows = await prisma.$queryRaw<{ w: string }[]>`
        SELECT COALESCE(wait_event_type || ':' || wait_event, 'cpu') || ' | ' || left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 90) AS w
          FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`;
      samples++;
      for (const r of rows) waits.set(r.w, (waits.get(r.w) ?? 0) + 1);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (waits.size)
    console.log(
      `${samples} samples:\n${[...waits]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 16)
        .map(([w, n]) => `${String(n).padStart(5)}  ${w}`)
        .join("\n")}`,
    );
}

/**
 * The same state changes as the lifecycle makes for n accepted events (members of the audience,
 * not suppressed), in one SQL statement: no lease, no per-event decision, no vendor call. The
 * limit of what these writes cost this database.
 */
export async function reference(prisma: PrismaClient, workspaceId: string, n: number) {
  const { campaign, contactIds } = await bigCampaign(prisma, workspaceId, n, "reference");
  await accept(prisma, workspaceId, campaign.id, contactIds);
  const cpuBefore = await readCpu(prisma);
  const started = performance.now();
  await prisma.$executeRaw`
    WITH ev AS (
      SELECT e.id, e."contactId", ct."accountId" FROM "EntryEvent" e
        JOIN "Contact" ct ON ct.id = e."contactId"
        JOIN "AudienceMember" m ON m."audienceId" = ${campaign.audienceId} AND m."contactId" = e."contactId"
       WHERE e."campaignId" = ${campaign.id} AND e.status = 'accepted'
         AND NOT EXISTS (SELECT 1 FROM "Suppression" s WHERE s."workspaceId" = ${workspaceId} AND s.kind = 'contact' AND s.value = e."contactId")),
    enr AS (
      INSERT INTO "Enrollment" (id, "workspaceId", "campaignId", "contactId", "accountId", "entryEventId", arm, status, "createdAt", "updatedAt")
      SELECT 'enr_' || replace(gen_random_uuid()::text, '-', ''), ${workspaceId}, ${campaign.id}, ev."contactId", ev."accountId", ev.id, 'treatment', 'mailed', now(), now() FROM ev
      RETURNING id, "contactId", "entryEventId"),
    pc AS (
      INSERT INTO "MailPiece" (id, "workspaceId", "campaignId", "enrollmentId", "contactId", sid, "responseCode", status, "costCents", recipient, copy, "printDraftId", pages, vendor, "renderedAt", "printedAt", "mailedAt", "createdAt", "updatedAt")
      SELECT 'pc_' || replace(gen_random_uuid()::text, '-', ''), ${workspaceId}, ${campaign.id}, enr.id, enr."contactId", d.sid, d."responseCode", 'mailed', 100, '{}', d.blocks, d.id, d.pages, 'sandbox', now(), now(), now(), now(), now()
        FROM enr JOIN "Draft" d ON d."campaignId" = ${campaign.id} AND d."contactId" = enr."contactId"
      RETURNING id, "enrollmentId", pages),
    rsv AS (
      INSERT INTO "BudgetReservation" (id, "workspaceId", "campaignId", "enrollmentId", "amountCents", status, "chargedAt")
      SELECT 'rsv_' || replace(gen_random_uuid()::text, '-', ''), ${workspaceId}, ${campaign.id}, pc."enrollmentId", 100, 'charged', now() FROM pc
      RETURNING 1),
    job AS (
      INSERT INTO "SandboxPrintJob" (id, "pieceId", "workspaceId", format, pages, "printedAt", "mailedAt")
      SELECT 'prt_' || replace(gen_random_uuid()::text, '-', ''), pc.id, ${workspaceId}, 'postcard', pc.pages, now(), now() FROM pc
      RETURNING 1),
    budget AS (
      UPDATE "Campaign" SET "spentCents" = "spentCents" + 100 * (SELECT count(*) FROM pc) WHERE id = ${campaign.id} RETURNING 1)
    UPDATE "EntryEvent" e SET status = 'completed', "completedAt" = now(), "updatedAt" = now()
      FROM enr WHERE e.id = enr."entryEventId"`;
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuBetween(cpuBefore, await readCpu(prisma));
  const completed = await prisma.entryEvent.count({ where: { campaignId: campaign.id, status: "completed" } });
  return { seconds, perSecond: completed / seconds, completed, cpu };
}

/**
 * The floor a crash-safe lifecycle stands on: the reference's state changes for N events of another
 * campaign, split into the two transactions that calling a print vendor between them requires. The
 * piece (with its enrollment and budget hold) must be committed before the vendor is asked to print
 * it, so that a worker killed during the call finds it and never prints it twice; the vendor's
 * answer then moves the piece, the hold, the enrollment and the event. Each phase is one SQL
 * statement over all N events, with the reference's reads and nothing of a lifecycle around it (no
 * gates, no lease renewal, no batching): the most a lifecycle that keeps exactly-once could reach.
 */
export async function twoPhaseFloor(prisma: PrismaClient, workspaceId: string, n: number) {
  const { campaign, contactIds } = await bigCampaign(prisma, workspaceId, n, "floor");
  await accept(prisma, workspaceId, campaign.id, contactIds);
  const cpuBefore = await readCpu(prisma);
  const started = performance.now();
  // Before the vendor: the events claimed, their enrollments, pieces and holds written.
  await prisma.$executeRaw`
    WITH ev AS (
      UPDATE "EntryEvent" e SET status = 'processing', "lockToken" = 'floor', "lockedUntil" = now() + interval '1 minute', attempts = attempts + 1, "updatedAt" = now()
        FROM "Contact" ct, "AudienceMember" m
       WHERE e."campaignId" = ${campaign.id} AND e.status = 'accepted' AND ct.id = e."contactId"
         AND m."audienceId" = ${campaign.audienceId} AND m."contactId" = e."contactId"
         AND NOT EXISTS (SELECT 1 FROM "Suppression" s WHERE s."workspaceId" = ${workspaceId} AND s.kind = 'contact' AND s.value = e."contactId")
      RETURNING e.id, e."contactId", ct."accountId"),
    enr AS (
      INSERT INTO "Enrollment" (id, "workspaceId", "campaignId", "contactId", "accountId", "entryEventId", arm, status, "createdAt", "updatedAt")
      SELECT 'enr_' || replace(gen_random_uuid()::text, '-', ''), ${workspaceId}, ${campaign.id}, ev."contactId", ev."accountId", ev.id, 'treatment', 'in_fulfilment', now(), now() FROM ev
      RETURNING id, "contactId"),
    pc AS (
      INSERT INTO "MailPiece" (id, "workspaceId", "campaignId", "enrollmentId", "contactId", sid, "responseCode", status, "costCents", recipient, copy, "printDraftId", pages, vendor, "renderedAt", "createdAt", "updatedAt")
      SELECT 'pc_' || replace(gen_random_uuid()::text, '-', ''), ${workspaceId}, ${campaign.id}, enr.id, enr."contactId", d.sid, d."responseCode", 'rendered', 100, '{}', d.blocks, d.id, d.pages, 'sandbox', now(), now(), now()
        FROM enr JOIN "Draft" d ON d."campaignId" = ${campaign.id} AND d."contactId" = enr."contactId"
      RETURNING "enrollmentId"),
    rsv AS (
      INSERT INTO "BudgetReservation" (id, "workspaceId", "campaignId", "enrollmentId", "amountCents", status)
      SELECT 'rsv_' || replace(gen_random_uuid()::text, '-', ''), ${workspaceId}, ${campaign.id}, pc."enrollmentId", 100, 'held' FROM pc
      RETURNING 1)
    UPDATE "Campaign" SET "reservedCents" = "reservedCents" + 100 * (SELECT count(*) FROM rsv) WHERE id = ${campaign.id}`;
  // The vendor's answer: printed and mailed.
  await prisma.$executeRaw`
    WITH pc AS (
      UPDATE "MailPiece" p SET status = 'mailed', "vendorRef" = 'sbx_' || p.id, "printedAt" = now(), "mailedAt" = now(), "updatedAt" = now()
       WHERE p."campaignId" = ${campaign.id} AND p.status = 'rendered'
      RETURNING p.id, p."enrollmentId", p.pages),
    job AS (
      INSERT INTO "SandboxPrintJob" (id, "pieceId", "workspaceId", format, pages, "printedAt", "mailedAt")
      SELECT 'prt_' || replace(gen_random_uuid()::text, '-', ''), pc.id, ${workspaceId}, 'postcard', pc.pages, now(), now() FROM pc
      RETURNING 1),
    rsv AS (
      UPDATE "BudgetReservation" r SET status = 'charged', "chargedAt" = now() FROM pc WHERE r."enrollmentId" = pc."enrollmentId"
      RETURNING r."amountCents"),
    enr AS (
      UPDATE "Enrollment" en SET status = 'mailed', "updatedAt" = now() FROM pc WHERE en.id = pc."enrollmentId"
      RETURNING en."entryEventId"),
    budget AS (
      UPDATE "Campaign" SET "spentCents" = "spentCents" + (SELECT coalesce(sum("amountCents"), 0) FROM rsv), "reservedCents" = "reservedCents" - (SELECT coalesce(sum("amountCents"), 0) FROM rsv)
       WHERE id = ${campaign.id} RETURNING 1)
    UPDATE "EntryEvent" e SET status = 'completed', "completedAt" = now(), "lockToken" = NULL, "lockedUntil" = NULL, "updatedAt" = now()
      FROM enr WHERE e.id = enr."entryEventId"`;
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuBetween(cpuBefore, await readCpu(prisma));
  const completed = await prisma.entryEvent.count({ where: { campaignId: campaign.id, status: "completed" } });
  return { seconds, perSecond: completed / seconds, completed, cpu };
}
