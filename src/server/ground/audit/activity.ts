import { z } from "zod";
import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { csvLine } from "@/server/ground/platform/csv-line";

/** Settings → Activity's filter: who (a kind of actor, or one actor), what (an action's kind), when. */
export const ZActivityFilter = z.object({
  actorKind: z.enum(["user", "api_key", "agent", "system"]).optional(),
  /** One person (usr_…), API key (key_…) or agent grant (grt_…). */
  actorId: z.string().min(1).max(64).optional(),
  /** The action's first word, e.g. "campaign" matches campaign.go_live.requested. */
  kind: z
    .string()
    .regex(/^[a-z_]{1,40}$/, "A kind is the first word of an action, e.g. campaign or card.")
    .optional(),
  /** From this instant, inclusive (ISO 8601). */
  from: z.iso.datetime({ offset: true }).optional(),
  /** Before this instant, exclusive (ISO 8601). */
  to: z.iso.datetime({ offset: true }).optional(),
});
export type TActivityFilter = z.infer<typeof ZActivityFilter>;

export const ACTIVITY_PAGE = 50;
/** A CSV export holds at most this many entries, newest first; the filter narrows a longer trail. */
export const ACTIVITY_EXPORT_MAX = 50_000;

function where(workspaceId: string, f: TActivityFilter): Prisma.AuditLogEntryWhereInput {
  return {
    workspaceId,
    ...(f.actorKind ? { actorKind: f.actorKind } : {}),
    ...(f.actorId ? { actorId: f.actorId } : {}),
    ...(f.kind ? { action: { startsWith: `${f.kind}.` } } : {}),
    ...(f.from || f.to
      ? { createdAt: { ...(f.from ? { gte: new Date(f.from) } : {}), ...(f.to ? { lt: new Date(f.to) } : {}) } }
      : {}),
  };
}

const ORDER: Prisma.AuditLogEntryOrderByWithRelationInput[] = [{ createdAt: "desc" }, { id: "desc" }];

/** One page of the workspace's audit trail, newest first; `nextCursor` reads the next (older) page. */
export async function listActivity(
  db: Db,
  p: { workspaceId: string; filter: TActivityFilter; cursor?: string; take?: number },
) {
  const take = p.take ?? ACTIVITY_PAGE;
  const rows = await db.auditLogEntry.findMany({
    where: where(p.workspaceId, p.filter),
    orderBy: ORDER,
    take: take + 1,
    ...(p.cursor ? { cursor: { id: p.cursor }, skip: 1 } : {}),
  });
  const entries = rows.slice(0, take);
  return { entries, nextCursor: rows.length > take ? entries[entries.length - 1].id : null };
}

/** Who appears in the trail, for the filter: each actor once, by their latest label. */
export async function activityActors(db: Db, p: { workspaceId: string }) {
  const rows = await db.auditLogEntry.findMany({
    where: { workspaceId: p.workspaceId, actorId: { not: null } },
    distinct: ["actorId"],
    orderBy: [{ actorId: "asc" }, { createdAt: "desc" }],
    select: { actorId: true, actorKind: true, actorLabel: true },
  });
  return rows
    .map((r) => ({ id: r.actorId as string, kind: r.actorKind, label: r.actorLabel }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** The kinds of action in the trail (each action's first word), for the filter. */
export async function activityKinds(db: Db, p: { workspaceId: string }) {
  const rows = await db.auditLogEntry.findMany({
    where: { workspaceId: p.workspaceId },
    distinct: ["action"],
    select: { action: true },
  });
  return [...new Set(rows.map((r) => r.action.split(".")[0]))].sort();
}

export const ACTIVITY_CSV_HEADER = [
  "time",
  "actor_kind",
  "actor_id",
  "actor",
  "action",
  "target_type",
  "target_id",
  "data",
];

/** The filtered trail as CSV (newest first, at most ACTIVITY_EXPORT_MAX entries), with a header line. */
export async function activityCsv(db: Db, p: { workspaceId: string; filter: TActivityFilter }) {
  const rows = await db.auditLogEntry.findMany({
    where: where(p.workspaceId, p.filter),
    orderBy: ORDER,
    take: ACTIVITY_EXPORT_MAX,
  });
  let csv = csvLine(ACTIVITY_CSV_HEADER);
  for (const r of rows)
    csv += csvLine([
      r.createdAt.toISOString(),
      r.actorKind,
      r.actorId,
      r.actorLabel,
      r.action,
      r.targetType,
      r.targetId,
      JSON.stringify(r.data),
    ]);
  return { csv, rows: rows.length, truncated: rows.length === ACTIVITY_EXPORT_MAX };
}
