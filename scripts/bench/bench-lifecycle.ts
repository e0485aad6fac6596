/**
 * npm run bench:lifecycle: how fast accepted entry events reach a terminal state on PostgreSQL.
 *  1. Throughput: N accepted events, then 1 (and then 2) `npm run worker` processes; events/s
 *     from the workers' start until every event is terminal.
 *  2. Lag: a steady 200 events/s for 20 s with 2 workers; p50/p99 of accepted -> terminal.
 * Every event goes the whole way: gates, enrollment, personalised PDF proof, budget reservation,
 * sandbox print and mail, charge.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { PrismaClient } from "@/generated/prisma/client";
import { acceptEntryEvent } from "@/server/entry/service";
import { openDatabase } from "@/server/platform/database";
import { benchDatabase } from "./fixture";

const N = Number(process.env.BENCH_EVENTS ?? 600);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const STEADY_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

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
      status: "live",
      acceptsApiEvents: true,
      audienceId: audience.id,
      holdoutShare: 0,
      budgetCents: 100_000_000,
      fulfilmentContractId: contract.id,
      destinationUrl: "https://bench.example/hi",
      headline: "{{firstName}}, hello",
      bodyTemplate: "Hi {{firstName}} at {{company}}, this is a benchmark postcard.",
      signOff: "Bench",
      wentLiveAt: new Date(),
    },
  });
  return { campaign, contactIds: rows.map((r) => r.id) };
}

function startWorkers(count: number, url: string): ChildProcess[] {
  return Array.from({ length: count }, () =>
    spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/worker.ts"], {
      env: { ...process.env, DATABASE_URL: url, WORKER_CONCURRENCY: "8" },
      stdio: ["ignore", "ignore", "ignore"],
    }),
  );
}

async function stopWorkers(workers: ChildProcess[]) {
  await Promise.all(workers.map((w) => new Promise<void>((r) => (w.exitCode !== null ? r() : (w.once("exit", () => r()), w.kill("SIGTERM"))))));
}

const terminal = ["completed", "held_out", "skipped", "failed"] as const;
const openCount = (prisma: PrismaClient, campaignId: string) => prisma.entryEvent.count({ where: { campaignId, status: { notIn: [...terminal] } } });

async function throughput(prisma: PrismaClient, url: string, workspaceId: string, workers: number) {
  const { campaign, contactIds } = await bigCampaign(prisma, workspaceId, N, `t${workers}`);
  for (let i = 0; i < contactIds.length; i += 50) {
    await Promise.all(contactIds.slice(i, i + 50).map((contactId) => acceptEntryEvent(prisma, { workspaceId, apiKeyId: null, source: "api", input: { campaignId: campaign.id, contactId, idempotencyKey: `b-${campaign.id}-${contactId}` } })));
  }
  const procs = startWorkers(workers, url);
  const started = Date.now();
  while ((await openCount(prisma, campaign.id)) > 0) await new Promise((r) => setTimeout(r, 250));
  const seconds = (Date.now() - started) / 1000;
  await stopWorkers(procs);
  const failed = await prisma.entryEvent.count({ where: { campaignId: campaign.id, status: { not: "completed" } } });
  return { workers, events: N, seconds, perSecond: N / seconds, notCompleted: failed };
}

async function steady(prisma: PrismaClient, url: string, workspaceId: string) {
  const { campaign, contactIds } = await bigCampaign(prisma, workspaceId, RATE * STEADY_SECONDS, "steady");
  const procs = startWorkers(2, url);
  await new Promise((r) => setTimeout(r, 3000)); // let the workers start
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
  while ((await openCount(prisma, campaign.id)) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
  await stopWorkers(procs);
  const lags = (
    await prisma.$queryRaw<{ ms: number }[]>`
      SELECT EXTRACT(EPOCH FROM ("completedAt" - "createdAt")) * 1000 AS ms FROM "EntryEvent" WHERE "campaignId" = ${campaign.id} AND "completedAt" IS NOT NULL ORDER BY 1`
  ).map((r) => Number(r.ms));
  const at = (q: number) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))];
  return { offered: contactIds.length / offeredSeconds, events: lags.length, p50: at(0.5), p99: at(0.99), max: lags[lags.length - 1] };
}

async function main() {
  const db = await benchDatabase(0);
  const database = openDatabase({ kind: "postgres", url: db.url });
  try {
    const one = await throughput(database.prisma, db.url, db.acme.id, 1);
    const two = await throughput(database.prisma, db.url, db.acme.id, 2);
    const lag = await steady(database.prisma, db.url, db.acme.id);
    console.log(`\nEntry lifecycle on PostgreSQL (accepted -> gates -> PDF proof -> reserve -> print and mail -> completed)\n`);
    console.log("| workers | events | seconds | events/s | not completed |");
    console.log("|---|---|---|---|---|");
    for (const r of [one, two]) console.log(`| ${r.workers} | ${r.events} | ${r.seconds.toFixed(1)} | ${r.perSecond.toFixed(0)} | ${r.notCompleted} |`);
    console.log(`\nSteady load with 2 workers: ${lag.offered.toFixed(0)} events/s offered for ${STEADY_SECONDS} s, ${lag.events} completed`);
    console.log(`lag accepted -> terminal: p50 ${(lag.p50 / 1000).toFixed(2)} s, p99 ${(lag.p99 / 1000).toFixed(2)} s, max ${(lag.max / 1000).toFixed(2)} s`);
  } finally {
    await database.close();
    await db.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
