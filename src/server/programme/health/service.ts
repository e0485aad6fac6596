import type { Db } from "@/server/ground/db";

export interface HealthReport {
  status: "ok" | "unavailable";
  database: "ok" | "unreachable";
  version: string;
  time: string;
  reason?: string;
}

const TIMEOUT_MS = 2_000;

/** Whether the service can answer: the database must reply to a trivial query within 2 s (`timeoutMs`). */
export async function checkHealth(db: Db, version: string, timeoutMs = TIMEOUT_MS): Promise<HealthReport> {
  const time = new Date().toISOString();
  try {
    await Promise.race([
      db.$queryRaw`SELECT 1`,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs).unref(),
      ),
    ]);
    return { status: "ok", database: "ok", version, time };
  } catch (error) {
    const reason =
      error instanceof Error && /no answer within/.test(error.message) ? error.message : "the database did not answer";
    return { status: "unavailable", database: "unreachable", version, time, reason };
  }
}
