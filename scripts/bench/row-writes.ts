/**
 * Rows the lifecycle writes, from PostgreSQL's own counters (pg_stat_user_tables): per table, rows
 * inserted and updated, and how many of the updates were made in place (HOT: no indexed column
 * changed and the row's page had room, so no index got a new entry). A backend reports its counters
 * when it ends or goes idle, so a reading is taken after the workers have stopped.
 */
import type { PrismaClient } from "@/generated/prisma/client";

export const LIFECYCLE_TABLES = [
  "EntryEvent",
  "Enrollment",
  "MailPiece",
  "BudgetReservation",
  "SandboxPrintJob",
  "Campaign",
] as const;

type Counts = { inserted: number; updated: number; inPlace: number };
export type RowWrites = Map<string, Counts>;

export async function readRowWrites(prisma: PrismaClient): Promise<RowWrites> {
  const rows = await prisma.$queryRaw<{ table: string; inserted: bigint; updated: bigint; inPlace: bigint }[]>`
    SELECT relname AS table, n_tup_ins AS inserted, n_tup_upd AS updated, n_tup_hot_upd AS "inPlace"
      FROM pg_stat_user_tables WHERE relname = ANY(${[...LIFECYCLE_TABLES]}::text[])`;
  return new Map(
    rows.map((r) => [
      r.table,
      { inserted: Number(r.inserted), updated: Number(r.updated), inPlace: Number(r.inPlace) },
    ]),
  );
}

/**
 * Waits until the counters stop moving, then reads them. An idle backend may keep its counters for
 * ten seconds, so each of this process's connections is asked to report its own now (the statements
 * overlap, so the pool hands each to another connection); a busy one (a worker's) reports at most
 * once a second, so the counters must then hold still for longer than that, twice.
 */
export async function settledRowWrites(
  prisma: PrismaClient,
  connections = Number(process.env.DATABASE_POOL_SIZE ?? 10),
): Promise<RowWrites> {
  await Promise.all(
    Array.from(
      { length: connections },
      () => prisma.$queryRaw`SELECT 1 AS ok FROM pg_stat_force_next_flush(), pg_sleep(0.05)`,
    ),
  );
  let last = await readRowWrites(prisma);
  let still = 0;
  for (let i = 0; i < 30 && still < 2; i++) {
    await new Promise((r) => setTimeout(r, 1100));
    const now = await readRowWrites(prisma);
    still = JSON.stringify([...now]) === JSON.stringify([...last]) ? still + 1 : 0;
    last = now;
  }
  return last;
}

/** One markdown row per table: inserts and updates per event between two readings, and the share of updates made in place. */
export function rowWritesTable(before: RowWrites, after: RowWrites, events: number): string[] {
  const lines = [
    "| table | rows inserted per event | rows updated per event | of the updates, in place (HOT) |",
    "|---|---|---|---|",
  ];
  for (const table of LIFECYCLE_TABLES) {
    const a = after.get(table);
    const b = before.get(table) ?? { inserted: 0, updated: 0, inPlace: 0 };
    if (!a) continue;
    const updated = a.updated - b.updated;
    const inPlace = a.inPlace - b.inPlace;
    lines.push(
      `| ${table} | ${((a.inserted - b.inserted) / events).toFixed(2)} | ${(updated / events).toFixed(2)} | ${updated ? `${Math.round((100 * inPlace) / updated)}%` : "-"} |`,
    );
  }
  return lines;
}
