import type { CrmConnection, CrmSync, Job } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { jobView } from "@/server/records/jobs/service";
import { dealFilterOf } from "./deal-rules";
import { emptyCounts, type TConnectionView, type TSyncCounts, type TSyncView, ZSyncCounts } from "./schema";

/** Stored counts, completed with zeros for anything an older sync did not write. */
export function countsOf(value: unknown): TSyncCounts {
  const parsed = ZSyncCounts.safeParse({ ...emptyCounts(), ...(value as object) });
  return parsed.success ? parsed.data : emptyCounts();
}

export function syncView(sync: CrmSync, job: Job, kind: CrmConnection["kind"], now = new Date()): TSyncView {
  const j = jobView(job, now);
  return {
    syncId: sync.id,
    connectionId: sync.connectionId,
    kind,
    mode: sync.mode,
    trigger: sync.trigger,
    status: job.status,
    counts: countsOf(sync.counts),
    job: j,
    requestedBy: sync.requestedByLabel,
    createdAt: sync.createdAt.toISOString(),
    finishedAt: j.finishedAt,
  };
}

/** The syncs' views, each with its job (one query for the jobs). */
export async function syncViews(
  db: Db,
  syncs: CrmSync[],
  kind: (s: CrmSync) => CrmConnection["kind"],
): Promise<TSyncView[]> {
  const jobs = syncs.length ? await db.job.findMany({ where: { id: { in: syncs.map((s) => s.jobId) } } }) : [];
  const byId = new Map(jobs.map((j) => [j.id, j]));
  return syncs.flatMap((s) => (byId.has(s.jobId) ? [syncView(s, byId.get(s.jobId)!, kind(s))] : []));
}

/** A connection as people and agents see it: never its credentials. */
export async function connectionViews(db: Db, connections: CrmConnection[]): Promise<TConnectionView[]> {
  const out: TConnectionView[] = [];
  for (const c of connections) {
    const latest = await db.crmSync.findFirst({
      where: { connectionId: c.id },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
    const [last] = latest ? await syncViews(db, [latest], () => c.kind) : [];
    const succeeded = await db.$queryRaw<{ at: Date | null }[]>`
      SELECT max(j."finishedAt") AS at FROM "CrmSync" s JOIN "Job" j ON j.id = s."jobId" WHERE s."connectionId" = ${c.id} AND j.status = 'succeeded'`;
    out.push({
      connectionId: c.id,
      kind: c.kind,
      name: c.name,
      status: c.status,
      attention: c.status === "needs_reconnect" ? c.attention : null,
      listsEnabled: c.listsEnabled,
      leads: c.leads,
      leadsNote: c.leadsNote,
      currency: c.currency,
      dealFilter: dealFilterOf(c.dealFilter),
      scheduleMinutes: c.scheduleMinutes,
      nextSyncAt: c.status === "connected" ? (c.nextSyncAt?.toISOString() ?? null) : null,
      connectedAt: c.connectedAt.toISOString(),
      connectedBy: c.connectedByLabel,
      disconnectedAt: c.disconnectedAt?.toISOString() ?? null,
      lastSync: last ?? null,
      lastSuccessfulSyncAt: succeeded[0]?.at ? new Date(succeeded[0].at).toISOString() : null,
    });
  }
  return out;
}
