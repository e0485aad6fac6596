import type { PrismaClient } from "@/generated/prisma/client";
import { pruneExpiredCounters } from "@/server/ground/rate-limits/service";
import { claimDueEvents, LEASE_MS, lifecycleLog } from "./claims";
import { keepLease } from "./lease";
import type { RunnerDeps } from "./runner";
import { napper } from "@/server/ground/platform/nap";
import { onWork } from "@/server/ground/signals/entry-wake";

export interface WorkerOptions {
  /** Events claimed and moved together by this worker (one batch at a time; see batch.ts). */
  batchSize?: number;
  /** How often an idle worker looks for due events. */
  pollMs?: number;
  /** How long a claim lasts before another worker may take the event over (default 60 s). */
  leaseMs?: number;
  /** Only this workspace's events. */
  workspaceId?: string;
  deps?: Partial<RunnerDeps>;
  /**
   * Housekeeping run every 30 s beside the rate-limit counters' pruning: the composition root
   * passes the expiry of confirmation cards past their time (confirmations/expire-cards.ts),
   * which wakes the events waiting on them.
   */
  maintenance?: (prisma: PrismaClient, now: Date) => Promise<unknown>;
}

export interface RunningWorker {
  /** Finishes the events in hand, then stops. */
  stop(): Promise<void>;
  wake(): void;
}

const MAINTENANCE_MS = 30_000;

/**
 * The lifecycle worker: claims due events from the database, a batch at a time, and moves them forward. Any number
 * can run against one PostgreSQL (`npm run worker`); on the embedded database one runs inside the
 * server process. It also expires confirmation cards and prunes old rate-limit counters.
 */
export function startLifecycleWorker(prisma: PrismaClient, options: WorkerOptions = {}): RunningWorker {
  // The clock and log the loop needs before its first batch; the runner itself (with the renderer
  // and the print vendors' clients) is loaded with the first events claimed (see claims.ts).
  const clock = options.deps?.clock ?? (() => new Date());
  const log = options.deps?.log ?? lifecycleLog;
  // Loaded once per worker, with its first claimed batch (a failed load is tried again with the next).
  let loading: Promise<{ processBatch: typeof import("./batch").processBatch; deps: RunnerDeps }> | null = null;
  const processing = () =>
    (loading ??= Promise.all([import("./batch"), import("./runner")]).then(
      ([{ processBatch }, { defaultDeps }]) => ({ processBatch, deps: { ...defaultDeps, ...options.deps } }),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));
  const batchSize = options.batchSize ?? 100;
  const pollMs = options.pollMs ?? 250;
  let stopping = false;
  const { nap, wake } = napper();
  let lastMaintenance = 0;
  const unsubscribe = onWork(wake);

  const loop = (async () => {
    while (!stopping) {
      try {
        const now = clock();
        if (now.getTime() - lastMaintenance > MAINTENANCE_MS) {
          lastMaintenance = now.getTime();
          await options.maintenance?.(prisma, now);
          await pruneExpiredCounters(prisma, now);
        }
        const claims = await claimDueEvents(prisma, {
          limit: batchSize,
          now,
          leaseMs: options.leaseMs,
          workspaceId: options.workspaceId,
        });
        if (claims.length > 0) {
          const run = await processing();
          // The batch's lease is renewed while it is moved (a slow vendor may outlast one lease).
          const lease = keepLease(prisma, {
            ids: claims.map((c) => c.id),
            token: claims[0].token,
            leaseMs: options.leaseMs ?? LEASE_MS,
            clock,
            log,
          });
          try {
            await run.processBatch(prisma, claims, run.deps);
          } finally {
            await lease.stop();
          }
          continue;
        }
      } catch (error) {
        log("worker loop error", error);
      }
      await nap(pollMs);
    }
  })();

  return {
    wake,
    async stop() {
      stopping = true;
      wake();
      unsubscribe();
      await loop;
    },
  };
}
