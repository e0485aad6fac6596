/**
 * npm run bench:lifecycle: how fast accepted entry events reach a terminal state on PostgreSQL.
 *  1. Throughput: N accepted events of a live campaign whose drafts were rendered before it went
 *     live (as the product has a team do), released at once to 1, then 2, `npm run worker`
 *     processes that are already running; events/s from the release until every event is terminal.
 *     Every event goes the whole way: gates, enrollment, its piece from its approved draft, budget
 *     reservation, sandbox print and mail, charge.
 *  2. Lag: a steady RATE events/s for BENCH_SECONDS with 2 workers; p50/p99 of accepted -> terminal.
 *  3. The reference, in the same run: the same state changes for N events of another campaign done
 *     by plain SQL in one statement (enrollments, pieces with their print files, reservations
 *     charged, the budget, the print jobs, the events completed), with no lifecycle around it.
 */
import type { ChildProcess } from "node:child_process";
import type { PrismaClient } from "@/generated/prisma/client";
import { goLive } from "@/server/campaigns/service";
import { requestDraftGeneration } from "@/server/drafts/service";
import { acceptEntryEvent } from "@/server/entry/service";
import { openDatabase } from "@/server/platform/database";
import { drainJobs } from "@/test/jobs";
import { benchDatabase } from "./fixture";
import { compileWorker, startWorker, stopWorker } from "./workers";

const N = Number(process.env.BENCH_EVENTS ?? 3000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const STEADY_SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const BATCH = process.env.WORKER_BATCH_SIZE ?? "100";

/** A live postcard campaign for `contacts` new contacts (five per account), their drafts rendered before it went live. */
async function bigCampaign(prisma: PrismaClient, workspaceId: string, contacts: number, label: string) {
  const audience = await prisma.audience.create({ data: { workspaceId, name: `bench ${label}` } });
  const accounts = await prisma.account.createManyAndReturn({
    data: Array.from({ length: Math.ceil(contacts / 5) }, (_, i) => ({ workspaceId, name: `Bench ${label} ${i}`, domain: `bench-${label}-${i}.example` })),
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
  await prisma.audienceMember.createMany({ data: rows.map((c) => ({ audienceId: audience.id, contactId: c.id, workspaceId })) });
  const contract = await prisma.fulfilmentContract.create({ data: { workspaceId, name: `bench ${label}`, format: "postcard", unitCostCents: 100, status: "approved" } });
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
    },
  });
  const rendering = performance.now();
  await requestDraftGeneration(prisma, { workspaceId, campaignId: campaign.id, actor: { kind: "system", id: null, label: "bench" } });
  await drainJobs(prisma, { workspaceId, maxRuns: 10_000 });
  const renderSeconds = (performance.now() - rendering) / 1000;
  await goLive(prisma, { workspaceId, campaignId: campaign.id, actor: { kind: "system", id: null, label: "bench" } });
  return { campaign, contactIds: rows.map((r) => r.id), renderSeconds };
}

async function accept(prisma: PrismaClient, workspaceId: string, campaignId: string, contactIds: string[]) {
  for (let i = 0; i < contactIds.length; i += 50) {
    await Promise.all(contactIds.slice(i, i + 50).map((contactId) => acceptEntryEvent(prisma, { workspaceId, apiKeyId: null, source: "api", input: { campaignId, contactId, idempotencyKey: `b-${campaignId}-${contactId}` } })));
  }
}

/** Starts `count` worker processes, as `npm run worker` does, and resolves once each says it runs. */
const startWorkers = (count: number, url: string) => Promise.all(Array.from({ length: count }, () => startWorker(url, { env: { WORKER_BATCH_SIZE: BATCH } })));
const stopWorkers = (workers: ChildProcess[]) => Promise.all(workers.map(stopWorker));

const terminal = ["completed", "held_out", "skipped", "failed"] as const;
const openCount = (prisma: PrismaClient, campaignId: string) => prisma.entryEvent.count({ where: { campaignId, status: { notIn: [...terminal] } } });

async function throughput(prisma: PrismaClient, url: string, workspaceId: string, workers: number) {
  const { campaign, contactIds, renderSeconds } = await bigCampaign(prisma, workspaceId, N, `t${workers}`);
  await accept(prisma, workspaceId, campaign.id, contactIds);
  // Held back until the workers run, then released at once: the clock starts at the release.
  await prisma.$executeRaw`UPDATE "EntryEvent" SET "runAfter" = timezone('UTC', now()) + interval '1 day' WHERE "campaignId" = ${campaign.id}`;
  const procs = await startWorkers(workers, url);
  const started = Date.now();
  await prisma.$executeRaw`UPDATE "EntryEvent" SET "runAfter" = timezone('UTC', now()) WHERE "campaignId" = ${campaign.id}`;
  const waits = new Map<string, number>();
  while ((await openCount(prisma, campaign.id)) > 0) {
    if (process.env.BENCH_WAITS) {
      // What the workers' connections wait for (BENCH_WAITS=1): lock waits show where workers serialise.
      const rows = await prisma.$queryRaw<{ w: string }[]>`
        SELECT COALESCE(wait_event_type || ':' || wait_event, 'cpu') || ' | ' || left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 70) AS w
          FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`;
      for (const r of rows) waits.set(r.w, (waits.get(r.w) ?? 0) + 1);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (waits.size) console.log([...waits].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([w, n]) => `${String(n).padStart(5)}  ${w}`).join("\n"));
  const seconds = (Date.now() - started) / 1000;
  await stopWorkers(procs);
  const notCompleted = await prisma.entryEvent.count({ where: { campaignId: campaign.id, status: { not: "completed" } } });
  const spent = await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id }, select: { spentCents: true, reservedCents: true } });
  return { workers, events: N, seconds, perSecond: N / seconds, notCompleted, renderSeconds, spent };
}

async function steady(prisma: PrismaClient, url: string, workspaceId: string) {
  const { campaign, contactIds } = await bigCampaign(prisma, workspaceId, RATE * STEADY_SECONDS, "steady");
  const procs = await startWorkers(2, url);
  const tick = 50;
  const perTick = (RATE * tick) / 1000;
  let next = 0;
  const started = Date.now();
  const inflight: Promise<unknown>[] = [];
  while (next < contactIds.length) {
    const due = Math.min(contactIds.length, Math.floor(((Date.now() - started) / tick + 1) * perTick));
    for (; next < due; next++) {
      const contactId = contactIds[next];
      inflight.push(acceptEntryEvent(prisma, { workspaceId, apiKeyId: null, source: "api", input: { campaignId: campaign.id, contactId, idempotencyKey: `s-${contactId}` } }));
    }
    await new Promise((r) => setTimeout(r, tick));
  }
  await Promise.all(inflight);
  const offeredSeconds = (Date.now() - started) / 1000;
  const deadline = Date.now() + 10 * 60_000;
  while ((await openCount(prisma, campaign.id)) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  await stopWorkers(procs);
  const lags = (
    await prisma.$queryRaw<{ ms: number }[]>`
      SELECT EXTRACT(EPOCH FROM ("completedAt" - "createdAt")) * 1000 AS ms FROM "EntryEvent" WHERE "campaignId" = ${campaign.id} AND "completedAt" IS NOT NULL ORDER BY 1`
  ).map((r) => Number(r.ms));
  const at = (q: number) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))];
  return { offered: contactIds.length / offeredSeconds, events: lags.length, p50: at(0.5), p99: at(0.99), max: lags[lags.length - 1] };
}

/**
 * The same state changes as the lifecycle makes for N accepted events (members of the audience,
 * not suppressed), in one SQL statement: no lease, no per-event decision, no vendor call. The
 * limit of what these writes cost this database.
 */
async function reference(prisma: PrismaClient, workspaceId: string) {
  const { campaign, contactIds } = await bigCampaign(prisma, workspaceId, N, "reference");
  await accept(prisma, workspaceId, campaign.id, contactIds);
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
      INSERT INTO "MailPiece" (id, "workspaceId", "campaignId", "enrollmentId", "contactId", sid, "responseCode", status, "costCents", recipient, copy, "proofPdf", pages, vendor, "renderedAt", "printedAt", "mailedAt", "createdAt", "updatedAt")
      SELECT 'pc_' || replace(gen_random_uuid()::text, '-', ''), ${workspaceId}, ${campaign.id}, enr.id, enr."contactId", d.sid, d."responseCode", 'mailed', 100, '{}', d.blocks, d.pdf, d.pages, 'sandbox', now(), now(), now(), now(), now()
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
  const completed = await prisma.entryEvent.count({ where: { campaignId: campaign.id, status: "completed" } });
  return { seconds, perSecond: completed / seconds, completed };
}

async function main() {
  await compileWorker();
  const db = await benchDatabase(0);
  const database = openDatabase({ kind: "postgres", url: db.url });
  try {
    const one = await throughput(database.prisma, db.url, db.acme.id, 1);
    const two = await throughput(database.prisma, db.url, db.acme.id, 2);
    const ref = await reference(database.prisma, db.acme.id);
    const lag = await steady(database.prisma, db.url, db.acme.id);
    console.log(`\nEntry lifecycle on PostgreSQL (accepted -> gates -> piece from its draft -> reserve -> print and mail -> completed), batches of ${BATCH}\n`);
    console.log("| workers | events | seconds | events/s | of the reference | not completed | spent (cents) |");
    console.log("|---|---|---|---|---|---|---|");
    for (const r of [one, two]) {
      console.log(`| ${r.workers} | ${r.events} | ${r.seconds.toFixed(1)} | ${r.perSecond.toFixed(0)} | ${(r.perSecond / ref.perSecond).toFixed(2)} | ${r.notCompleted} | ${r.spent.spentCents} (held ${r.spent.reservedCents}) |`);
    }
    console.log(`| reference (one SQL statement) | ${ref.completed} | ${ref.seconds.toFixed(1)} | ${ref.perSecond.toFixed(0)} | 1.00 | ${N - ref.completed} | |`);
    console.log(`\nDrafts rendered before going live: ${N} in ${one.renderSeconds.toFixed(1)} s (${(N / one.renderSeconds).toFixed(0)}/s, a drafts_generate job in this process).`);
    console.log(`\nSteady load with 2 workers: ${lag.offered.toFixed(0)} events/s offered for ${STEADY_SECONDS} s, ${lag.events} completed`);
    console.log(`lag accepted -> terminal: p50 ${(lag.p50 / 1000).toFixed(2)} s, p99 ${(lag.p99 / 1000).toFixed(2)} s, max ${(lag.max / 1000).toFixed(2)} s (aim: p99 under 5 s)`);
  } finally {
    await database.close();
    await db.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
