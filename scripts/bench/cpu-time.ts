/**
 * CPU time spent by processes on this machine, from /proc (Linux): the workers a benchmark started
 * and the PostgreSQL backends serving its database. Wall-clock figures follow whatever else the
 * machine runs; the CPU a piece of work costs moves much less, so the benchmarks print both.
 */
import fs from "node:fs";
import type { PrismaClient } from "@/generated/prisma/client";

const TICKS_PER_SECOND = 100;

/** Seconds of CPU (user and system) process `pid` has used so far; 0 when it is gone. */
export function processCpuSeconds(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** Seconds of CPU used so far by each PostgreSQL backend connected to this client's database (by pid). */
export async function backendCpuSeconds(prisma: PrismaClient): Promise<Map<number, number>> {
  const rows = await prisma.$queryRaw<
    { pid: number }[]
  >`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`;
  return new Map(rows.map((r) => [r.pid, processCpuSeconds(r.pid)]));
}

/** CPU seconds the backends used between two readings (backends that appeared since count from zero). */
export function backendCpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}
