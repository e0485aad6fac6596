import { ConfigError, type Env, onPostgresServer } from "@/server/ground/platform/config";

export interface WorkerSettings {
  /** Entry events a worker claims and moves together (the lifecycle's batch). */
  batchSize: number;
  /** How long a claim lasts before another worker may take a crashed worker's events over. */
  leaseMs: number | undefined;
  /** Jobs a process runs at once. */
  jobConcurrency: number;
}

/**
 * A batch on PostgreSQL: 250 events. Larger batches cost the database and the worker less per
 * event (docs/benchmarks.md), and the batch's lease is renewed while a slow vendor holds it
 * (lifecycle/lease.ts). On the embedded database a batch's transaction holds the one connection
 * the web requests share, so a batch stays at 100 there.
 */
export const POSTGRES_BATCH = 250;
const EMBEDDED_BATCH = 100;
const MAX_BATCH = 1000;

/**
 * The background work's sizes from the environment: WORKER_BATCH_SIZE, WORKER_LEASE_MS and
 * JOB_CONCURRENCY, each a whole number in its range or unset. A bad value stops the start with one
 * sentence (ConfigError), rather than a worker that fails every claim.
 */
export function workerSettings(env: Env = process.env): WorkerSettings {
  return {
    batchSize:
      whole(env, "WORKER_BATCH_SIZE", 1, MAX_BATCH) ?? (onPostgresServer(env) ? POSTGRES_BATCH : EMBEDDED_BATCH),
    leaseMs: whole(env, "WORKER_LEASE_MS", 1_000, 3_600_000),
    jobConcurrency: whole(env, "JOB_CONCURRENCY", 1, 32) ?? 1,
  };
}

function whole(env: Env, name: string, min: number, max: number): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max)
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw.slice(0, 40)}").`);
  return n;
}
