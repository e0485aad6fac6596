/**
 * npm run bench:send: a campaign that mails its whole audience at go-live, on PostgreSQL.
 *  1. BENCH_SEND_CONTACTS (default 50,000) new contacts in one audience, their drafts rendered
 *     first (timed apart), a draft campaign with entry policy audience_at_go_live, and 2 running
 *     `npm run worker` processes.
 *  2. Going live (the transaction an accepted card runs: the arms drawn over the accounts, then
 *     one INSERT … SELECT entering every contact) is timed, then the time until every entry is
 *     terminal (gates, enrollment, piece from its draft, budget, sandbox print and mail, charge).
 *  3. The reference, in the same run: bench:lifecycle's one-statement reference (the same state
 *     changes in plain SQL) for the same number of events, so the figure reads against the limit.
 */
import { goLive } from "@/server/programme/campaigns/service";
import { openDatabase } from "@/server/ground/platform/database";
import {
  BATCH,
  bigCampaign,
  cpuBetween,
  msPer,
  readCpu,
  reference,
  startWorkers,
  stopWorkers,
  untilTerminal,
} from "./campaign-fixture";
import { benchDatabase } from "./fixture";
import { compileWorker } from "./workers";

const N = Number(process.env.BENCH_SEND_CONTACTS ?? 50_000);

async function main() {
  await compileWorker();
  const db = await benchDatabase(0);
  const database = openDatabase({ kind: "postgres", url: db.url });
  const prisma = database.prisma;
  try {
    const { campaign, renderSeconds } = await bigCampaign(prisma, db.acme.id, N, "send", {
      campaign: { entryPolicy: "audience_at_go_live", acceptsApiEvents: false },
      goLive: false,
    });
    const workers = await startWorkers(2, db.url);
    const cpuBefore = await readCpu(prisma, workers);
    const started = performance.now();
    const live = await goLive(prisma, {
      workspaceId: db.acme.id,
      campaignId: campaign.id,
      actor: { kind: "system", id: null, label: "bench" },
    });
    const goLiveSeconds = (performance.now() - started) / 1000;
    await untilTerminal(prisma, campaign.id);
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuBetween(cpuBefore, await readCpu(prisma, workers));
    await stopWorkers(workers);
    const byStatus = await prisma.entryEvent.groupBy({
      by: ["status"],
      where: { campaignId: campaign.id },
      _count: { _all: true },
    });
    const pieces = await prisma.mailPiece.count({ where: { campaignId: campaign.id, status: "mailed" } });
    const ref = await reference(prisma, db.acme.id, Math.min(N, 10_000));

    console.log(
      `\nSending to a whole audience at go-live on PostgreSQL: ${N.toLocaleString("en-US")} contacts, 2 workers, batches of ${BATCH}\n`,
    );
    const refCpu = (ref.cpu.workers + ref.cpu.database) / ref.completed;
    console.log(
      "| step | seconds | entries/s | of the reference | CPU per entry: workers + PostgreSQL (ms) | of the reference's CPU |",
    );
    console.log("|---|---|---|---|---|---|");
    console.log(
      `| go-live transaction (arms drawn, ${live.entered.toLocaleString("en-US")} entries created) | ${goLiveSeconds.toFixed(1)} | | | | |`,
    );
    console.log(
      `| accepting the card -> every entry terminal | ${seconds.toFixed(1)} | ${(N / seconds).toFixed(0)} | ${(N / seconds / ref.perSecond).toFixed(2)} | ${msPer(cpu.workers, N)} + ${msPer(cpu.database, N)} | ${(refCpu / ((cpu.workers + cpu.database) / N)).toFixed(2)} |`,
    );
    console.log(
      `| reference: the same state changes in one SQL statement (${ref.completed.toLocaleString("en-US")} events) | ${ref.seconds.toFixed(1)} | ${ref.perSecond.toFixed(0)} | 1.00 | 0 + ${msPer(ref.cpu.database, ref.completed)} | 1.00 |`,
    );
    console.log(
      `\nEntries by status: ${byStatus.map((s) => `${s.status} ${s._count._all}`).join(", ")}; ${pieces.toLocaleString("en-US")} pieces mailed, each contact once.`,
    );
    console.log(
      `Drafts rendered before going live: ${N.toLocaleString("en-US")} in ${renderSeconds.toFixed(1)} s (${(N / renderSeconds).toFixed(0)}/s), not counted above.`,
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
