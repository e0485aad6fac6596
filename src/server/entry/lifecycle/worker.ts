import type { PrismaClient } from "@/generated/prisma/client";
import { expireCards } from "@/server/confirmations/service";
import { pruneExpiredCounters } from "@/server/rate-limits/service";
import { claimDueEvents, defaultDeps, processEvent, type RunnerDeps } from "./runner";
import { onWork } from "./wake";

export interface WorkerOptions {
  /** Events processed at once by this worker. */
  concurrency?: number;
  /** How often an idle worker looks for due events. */
  pollMs?: number;
  /** How long a claim lasts before another worker may take the event over (default 60 s). */
  leaseMs?: number;
  /** Only this workspace's events. */
  workspaceId?: string;
  deps?: Partial<RunnerDeps>;
}

export interface RunningWorker {
  /** Finishes the events in hand, then stops. */
  stop(): Promise<void>;
  wake(): void;
}

const MAINTENANCE_MS = 30_000;

/**
 * The lifecycle worker: claims due events from the database and moves each forward. Any number
 * can run against one PostgreSQL (`npm run worker`); on the embedded database one runs inside the
 * server process. It also expires confirmation cards and prunes old rate-limit counters.
 */
export function startLifecycleWorker(prisma: PrismaClient, options: WorkerOptions = {}): RunningWorker {
  const deps = { ...defaultDeps, ...options.deps };
  const concurrency = options.concurrency ?? 4;
  const pollMs = options.pollMs ?? 250;
  let stopping = false;
  let wakeUp: (() => void) | null = null;
  let lastMaintenance = 0;
  const wake = () => wakeUp?.();
  const unsubscribe = onWork(wake);

  const loop = (async () => {
    while (!stopping) {
      try {
        const now = deps.clock();
        if (now.getTime() - lastMaintenance > MAINTENANCE_MS) {
          lastMaintenance = now.getTime();
          await expireCards(prisma, now);
          await pruneExpiredCounters(prisma, now);
        }
        const claims = await claimDueEvents(prisma, { limit: concurrency, now, leaseMs: options.leaseMs, workspaceId: options.workspaceId });
        if (claims.length > 0) {
          await Promise.all(claims.map((claim) => processEvent(prisma, claim, deps)));
          continue;
        }
      } catch (error) {
        deps.log("worker loop error", error);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeUp = null;
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
