/**
 * npm run bench:lifecycle: how fast accepted entry events reach a terminal state on PostgreSQL.
 *  1. Throughput: N accepted events of a live campaign whose drafts were rendered before it went
 *     live (as the product has a team do), released at once to 1, then 2, `npm run worker`
 *     processes that are already running; events/s from the release until every event is terminal.
 *     Every event goes the whole way: gates, enrollment, its piece from its approved draft, budget
 *     reservation, sandbox print and mail, charge. Before that release the new workers take
 *     BENCH_WARM_EVENTS (300) events of another campaign and every other due event of the
 *     database (the demo's): their first batches, printed as a row of their own, load the runner's
 *     modules and prepare Prisma's queries once per process, which a worker that has been running
 *     has long done.
 *  2. Lag: a steady RATE events/s for BENCH_SECONDS with 2 workers; p50/p99 of accepted -> terminal.
 *  3. The reference, in the same run: the same state changes for N events of another campaign done
 *     by plain SQL in one statement (enrollments, pieces referring to their drafts' print files, reservations
 *     charged, the budget, the print jobs, the events completed), with no lifecycle around it; and its
 *     floor, the same changes in the two transactions a vendor's call between them needs (twoPhaseFloor).
 */
import type { PrismaClient } from "@/generated/prisma/client";
import { acceptEntryEvent } from "@/server/programme/entry/service";
import { openDatabase } from "@/server/ground/platform/database";
import {
  accept,
  anyDue,
  BATCH,
  bigCampaign,
  anyOpen,
  cpuBetween,
  msPer,
  readCpu,
  reference,
  startWorkers,
  twoPhaseFloor,
  stopWorkers,
  untilTerminal,
} from "./campaign-fixture";
import { benchDatabase } from "./fixture";
import { rowWritesTable, settledRowWrites } from "./row-writes";
import { compileWorker } from "./workers";

const N = Number(process.env.BENCH_EVENTS ?? 3000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const STEADY_SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WARM_EVENTS = Number(process.env.BENCH_WARM_EVENTS ?? 300);

/** A campaign's accepted events, held back until `release` lets them all go at once. */
async function heldCampaign(prisma: PrismaClient, workspaceId: string, n: number, label: string) {
  const made = await bigCampaign(prisma, workspaceId, n, label);
  await accept(prisma, workspaceId, made.campaign.id, made.contactIds);
  await prisma.$executeRaw`UPDATE "EntryEvent" SET "runAfter" = timezone('UTC', now()) + interval '1 day' WHERE "campaignId" = ${made.campaign.id}`;
  return made;
}
const release = (prisma: PrismaClient, campaignId: string) =>
  prisma.$executeRaw`UPDATE "EntryEvent" SET "runAfter" = timezone('UTC', now()) WHERE "campaignId" = ${campaignId}`;

/** Releases the held events of `campaignId` to the running workers and times them until every event of the database that is due has ended or waits. */
async function timedRelease(
  prisma: PrismaClient,
  procs: Awaited<ReturnType<typeof startWorkers>>,
  campaignId: string,
  events: number,
) {
  const cpuBefore = await readCpu(prisma, procs);
  const started = Date.now();
  await release(prisma, campaignId);
  await untilTerminal(prisma, campaignId);
  const deadline = Date.now() + 60_000;
  while ((await anyDue(prisma)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const seconds = (Date.now() - started) / 1000;
  return { events, seconds, perSecond: events / seconds, cpu: cpuBetween(cpuBefore, await readCpu(prisma, procs)) };
}

async function throughput(prisma: PrismaClient, url: string, workspaceId: string, workers: number) {
  const warm = WARM_EVENTS > 0 ? await heldCampaign(prisma, workspaceId, WARM_EVENTS, `w${workers}`) : null;
  const { campaign, renderSeconds } = await heldCampaign(prisma, workspaceId, N, `t${workers}`);
  const procs = await startWorkers(workers, url);
  // The new workers' first batches (and any other event due, such as the demo's), then the measured release.
  const first = warm ? await timedRelease(prisma, procs, warm.campaign.id, WARM_EVENTS) : null;
  const writesBefore = await settledRowWrites(prisma);
  const measured = await timedRelease(prisma, procs, campaign.id, N);
  await stopWorkers(procs);
  const writes = rowWritesTable(writesBefore, await settledRowWrites(prisma), N);
  const notCompleted = await prisma.entryEvent.count({
    where: { campaignId: campaign.id, status: { not: "completed" } },
  });
  const spent = await prisma.campaign.findUniqueOrThrow({
    where: { id: campaign.id },
    select: { spentCents: true, reservedCents: true },
  });
  return { workers, ...measured, first, notCompleted, renderSeconds, spent, writes };
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
      inflight.push(
        acceptEntryEvent(prisma, {
          workspaceId,
          apiKeyId: null,
          source: "api",
          input: { campaignId: campaign.id, contactId, idempotencyKey: `s-${contactId}` },
        }),
      );
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
  return {
    offered: contactIds.length / offeredSeconds,
    events: lags.length,
    p50: at(0.5),
    p99: at(0.99),
    max: lags[lags.length - 1],
  };
}

async function main() {
  await compileWorker();
  const db = await benchDatabase(0);
  const database = openDatabase({ kind: "postgres", url: db.url });
  try {
    const one = await throughput(database.prisma, db.url, db.acme.id, 1);
    const two = await throughput(database.prisma, db.url, db.acme.id, 2);
    const ref = await reference(database.prisma, db.acme.id, N);
    const floor = await twoPhaseFloor(database.prisma, db.acme.id, N);
    const lag = await steady(database.prisma, db.url, db.acme.id);
    console.log(
      `\nEntry lifecycle on PostgreSQL (accepted -> gates -> piece from its draft -> reserve -> print and mail -> completed), batches of ${BATCH}\n`,
    );
    const refCpu = ref.cpu.workers + ref.cpu.database;
    console.log(
      "| workers | events | seconds | events/s | of the reference | CPU per event: workers + PostgreSQL (ms) | of the reference's CPU | not completed | spent (cents) |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|");
    const row = (
      label: string,
      r: { events: number; seconds: number; perSecond: number; cpu: { workers: number; database: number } },
      rest: string,
    ) => {
      const cpu = r.cpu.workers + r.cpu.database;
      console.log(
        `| ${label} | ${r.events} | ${r.seconds.toFixed(1)} | ${r.perSecond.toFixed(0)} | ${(r.perSecond / ref.perSecond).toFixed(2)} | ${msPer(r.cpu.workers, r.events)} + ${msPer(r.cpu.database, r.events)} | ${(refCpu / ref.completed / (cpu / r.events)).toFixed(2)} | ${rest} |`,
      );
    };
    for (const r of [one, two]) {
      if (r.first) row(`${r.workers}, new workers: their first ${r.first.events}`, r.first, " | ");
      row(String(r.workers), r, `${r.notCompleted} | ${r.spent.spentCents} (held ${r.spent.reservedCents})`);
    }
    console.log(
      `| reference (one SQL statement) | ${ref.completed} | ${ref.seconds.toFixed(1)} | ${ref.perSecond.toFixed(0)} | 1.00 | 0 + ${msPer(ref.cpu.database, ref.completed)} | 1.00 | ${N - ref.completed} | |`,
    );
    console.log(
      `| floor: the reference in two transactions, the vendor's call between them | ${floor.completed} | ${floor.seconds.toFixed(1)} | ${floor.perSecond.toFixed(0)} | ${(floor.perSecond / ref.perSecond).toFixed(2)} | 0 + ${msPer(floor.cpu.database, floor.completed)} | ${(refCpu / ref.completed / ((floor.cpu.workers + floor.cpu.database) / floor.completed)).toFixed(2)} | ${N - floor.completed} | |`,
    );
    console.log(
      `\nThe floor makes the reference's changes in the two transactions exactly-once requires (a piece, its enrollment and its budget hold committed before the vendor is asked to print it; the vendor's answer then moves them), each one statement over all ${N} events: the most a lifecycle that never prints a piece twice can reach, ${(floor.perSecond / ref.perSecond).toFixed(2)} of the reference in this run. Two workers stand at ${(two.perSecond / floor.perSecond).toFixed(2)} of the floor.`,
    );
    if (WARM_EVENTS > 0) {
      console.log(
        `\nThe rows "1" and "2" are the measure: the same workers after their first ${WARM_EVENTS} events, which load the runner's modules and prepare Prisma's queries once per process, and with the first of them any other event due (the demo's). BENCH_WARM_EVENTS=0 measures new workers instead.`,
      );
    }
    console.log(
      `\nRows written by the ${N} events with 2 workers, from PostgreSQL's counters (the benchmark's release of the held events is one update of each event; an update in place writes no index):\n`,
    );
    for (const line of two.writes) console.log(line);
    console.log(
      "\nCPU is read from /proc for the workers and for the PostgreSQL backends of the benchmark's database (its own polling included): it moves far less than wall time with the machine's load.",
    );
    console.log(
      `\nDrafts rendered before going live: ${N} in ${one.renderSeconds.toFixed(1)} s (${(N / one.renderSeconds).toFixed(0)}/s, a drafts_generate job in this process).`,
    );
    console.log(
      `\nSteady load with 2 workers: ${lag.offered.toFixed(0)} events/s offered for ${STEADY_SECONDS} s, ${lag.events} completed`,
    );
    console.log(
      `lag accepted -> terminal: p50 ${(lag.p50 / 1000).toFixed(2)} s, p99 ${(lag.p99 / 1000).toFixed(2)} s, max ${(lag.max / 1000).toFixed(2)} s (aim: p99 under 5 s)`,
    );
  } finally {
    await database.close();
    await db.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
