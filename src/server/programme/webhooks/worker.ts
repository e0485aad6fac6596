import type { PrismaClient } from "@/generated/prisma/client";
import { napper } from "@/server/ground/platform/nap";
import {
  claimDeliveries,
  type DeliveryDeps,
  defaultDeliveryDeps,
  deliverClaimed,
  pruneWebhookEvents,
} from "./delivery";
import { onWebhookQueued } from "./wake";

export interface WebhookWorkerOptions {
  /** Requests in flight at once (they wait on the network, not the CPU). */
  concurrency?: number;
  /** Deliveries claimed, sent and recorded together. */
  batchSize?: number;
  /** How often an idle worker looks for due deliveries. */
  pollMs?: number;
  deps?: Partial<DeliveryDeps>;
  log?: (line: string, error?: unknown) => void;
  /** Only this workspace's deliveries (tests that run a worker beside others on one database). */
  workspaceId?: string;
}

const PRUNE_EVERY_MS = 3600_000;

/**
 * The delivery loop of one process, beside the lifecycle and the jobs: claims due deliveries a
 * batch at a time, keeps up to `concurrency` requests in flight, and once an hour drops events past retention.
 */
export function startWebhookWorker(prisma: PrismaClient, options: WebhookWorkerOptions = {}) {
  const deps = { ...defaultDeliveryDeps, ...options.deps };
  const concurrency = options.concurrency ?? 64;
  const batchSize = options.batchSize ?? 16;
  const pollMs = options.pollMs ?? 500;
  const log = options.log ?? ((line, error) => console.error(`[webhooks] ${line}`, error ?? ""));
  const { nap, wake } = napper();
  const unsubscribe = onWebhookQueued(wake);
  const running = new Set<Promise<unknown>>();
  let inFlight = 0;
  let stopping = false;
  let lastPrune = 0;

  const loop = (async () => {
    while (!stopping) {
      try {
        const free = Math.min(batchSize, concurrency - inFlight);
        if (free > 0) {
          const now = deps.clock();
          const { token, ids } = await claimDeliveries(prisma, { limit: free, now, workspaceId: options.workspaceId });
          if (ids.length) {
            inFlight += ids.length;
            const task = deliverClaimed(prisma, ids, token, deps)
              .catch((error) => log(`deliveries ${ids.join(", ")} could not be recorded`, error))
              .finally(() => {
                inFlight -= ids.length;
                running.delete(task);
                wake();
              });
            running.add(task);
          }
          // A full batch: more may be due at once.
          if (ids.length === free) continue;
          if (now.getTime() - lastPrune > PRUNE_EVERY_MS) {
            lastPrune = now.getTime();
            await pruneWebhookEvents(prisma, now);
          }
        }
      } catch (error) {
        log("webhook worker loop error", error);
      }
      await nap(pollMs);
    }
    await Promise.allSettled([...running]);
  })();

  return {
    async stop() {
      stopping = true;
      wake();
      unsubscribe();
      await loop;
    },
  };
}
