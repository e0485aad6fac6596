/**
 * npm run bench:lifecycle: how fast accepted entry events reach a terminal state on PostgreSQL.
 *  1. Throughput: N accepted events of a live campaign whose drafts were rendered before it went
 *     live (as the product has a team do), released at once to 1, then 2, `npm run worker`
 *     processes that are already running; events/s from the release until every event is terminal.
 *     Every event goes the whole way: gates, enrollment, its piece from its approved draft, budget
 *     reservation, sandbox print and mail, charge.
 *  2. Lag: a steady RATE events/s for BENCH_SECONDS with 2 workers; p50/p99 of accepted -> terminal.
 *  3. The reference, in the same run: the same state changes for N events of another campaign done
 *     by plain SQL in one statement (enrollments, pieces referring to their drafts' print files, reservations
 *     charged, the budget, the print jobs, the events completed), with no lifecycle around it.
 */
import type { PrismaClient } from "@/generated/prisma/client";
import { acceptEntryEvent } from "@/server/entry/service";
import { openDatabase } from "@/server/platform/database";
import { accept, BATCH, bigCampaign, anyOpen, cpuBetween, msPer, readCpu, reference, startWorkers, stopWorkers, untilTerminal } from "./campaign-fixture";
import { benchDatabase } from "./fixture";
import { compileWorker } from "./workers";

const N = Number(process.env.BENCH_EVENTS ?? 3000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const STEADY_SECONDS = Number(process.env.BENCH_SECONDS ?? 15);

async function throughput(prisma: PrismaClient, url: string, workspaceId: string, workers: number) {
  const { campaign, contactIds, renderSeconds } = await bigCampaign(prisma, workspaceId, N, `t${workers}`);
  await accept(prisma, workspaceId, campaign.id, contactIds);
  // Held back until the workers run, then released at once: the clock starts at the release.
  await prisma.$executeRaw`UPDATE "EntryEvent" SET "runAfter" = timezone('UTC', now()) + interval '1 day' WHERE "campaignId" = ${campaign.id}`;
  const procs = await startWorkers(workers, url);
  const cpuBefore = await readCpu(prisma, procs);
  const started = Date.now();
  await prisma.$executeRaw`UPDATE "EntryEvent" SET "runAfter" = timezone('UTC', now()) WHERE "campaignId" = ${campaign.id}`;
  await untilTerminal(prisma, campaign.id);
  const seconds = (Date.now() - started) / 1000;
  const cpu = cpuBetween(cpuBefore, await readCpu(prisma, procs));
  await stopWorkers(procs);
  const notCompleted = await prisma.entryEvent.count({ where: { campaignId: campaign.id, status: { not: "completed" } } });
  const spent = await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id }, select: { spentCents: true, reservedCents: true } });
  return { workers, events: N, seconds, perSecond: N / seconds, notCompleted, renderSeconds, spent, cpu };
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
  while ((await anyOpen(prisma, campaign.id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  await stopWorkers(procs);
  const lags = (
    await prisma.$queryRaw<{ ms: number }[]>`
      SELECT EXTRACT(EPOCH FROM ("completedAt" - "createdAt")) * 1000 AS ms FROM "EntryEvent" WHERE "campaignId" = ${campaign.id} AND "completedAt" IS NOT NULL ORDER BY 1`
  ).map((r) => Number(r.ms));
  const at = (q: number) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))];
  return { offered: contactIds.length / offeredSeconds, events: lags.length, p50: at(0.5), p99: at(0.99), max: lags[lags.length - 1] };
}

async function main() {
  await compileWorker();
  const db = await benchDatabase(0);
  const database = openDatabase({ kind: "postgres", url: db.url });
  try {
    const one = await throughput(database.prisma, db.url, db.acme.id, 1);
    const two = await throughput(database.prisma, db.url, db.acme.id, 2);
    const ref = await reference(database.prisma, db.acme.id, N);
    const lag = await steady(database.prisma, db.url, db.acme.id);
    console.log(`\nEntry lifecycle on PostgreSQL (accepted -> gates -> piece from its draft -> reserve -> print and mail -> completed), batches of ${BATCH}\n`);
    const refCpu = ref.cpu.workers + ref.cpu.database;
    console.log("| workers | events | seconds | events/s | of the reference | CPU per event: workers + PostgreSQL (ms) | of the reference's CPU | not completed | spent (cents) |");
    console.log("|---|---|---|---|---|---|---|---|---|");
    for (const r of [one, two]) {
      const cpu = r.cpu.workers + r.cpu.database;
      console.log(
        `| ${r.workers} | ${r.events} | ${r.seconds.toFixed(1)} | ${r.perSecond.toFixed(0)} | ${(r.perSecond / ref.perSecond).toFixed(2)} | ${msPer(r.cpu.workers, r.events)} + ${msPer(r.cpu.database, r.events)} | ${(refCpu / ref.completed / (cpu / r.events)).toFixed(2)} | ${r.notCompleted} | ${r.spent.spentCents} (held ${r.spent.reservedCents}) |`,
      );
    }
    console.log(`| reference (one SQL statement) | ${ref.completed} | ${ref.seconds.toFixed(1)} | ${ref.perSecond.toFixed(0)} | 1.00 | 0 + ${msPer(ref.cpu.database, ref.completed)} | 1.00 | ${N - ref.completed} | |`);
    console.log("\nCPU is read from /proc for the workers and for the PostgreSQL backends of the benchmark's database (its own polling included): it moves far less than wall time with the machine's load.");
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
