import type { PrismaClient } from "@/generated/prisma/client";
import { napper } from "@/server/platform/nap";
import { attemptDelivery, claimDeliveries, type DeliveryDeps, defaultDeliveryDeps, pruneWebhookEvents } from "./delivery";
import { onWebhookQueued } from "./wake";

export interface WebhookWorkerOptions {
  /** Requests in flight at once (they wait on the network, not the CPU). */
  concurrency?: number;
  /** How often an idle worker looks for due deliveries. */
  pollMs?: number;
  deps?: Partial<DeliveryDeps>;
  log?: (line: string, error?: unknown) => void;
}

const PRUNE_EVERY_MS = 3600_000;

/**
 * The delivery loop of one process, beside the lifecycle and the jobs: claims due deliveries,
 * keeps up to `concurrency` requests in flight, and once an hour drops events past retention.
 */
export function startWebhookWorker(prisma: PrismaClient, options: WebhookWorkerOptions = {}) {
  const deps = { ...defaultDeliveryDeps, ...options.deps };
  const concurrency = options.concurrency ?? 16;
  const pollMs = options.pollMs ?? 500;
  const log = options.log ?? ((line, error) => console.error(`[webhooks] ${line}`, error ?? ""));
  const { nap, wake } = napper();
  const unsubscribe = onWebhookQueued(wake);
  const running = new Set<Promise<unknown>>();
  let stopping = false;
  let lastPrune = 0;

  const loop = (async () => {
    while (!stopping) {
      try {
        const free = concurrency - running.size;
        if (free > 0) {
          const now = deps.clock();
          const { token, ids } = await claimDeliveries(prisma, { limit: free, now });
          for (const id of ids) {
            const task = attemptDelivery(prisma, id, token, deps)
              .catch((error) => log(`delivery ${id} could not be recorded`, error))
              .finally(() => {
                running.delete(task);
                wake();
              });
            running.add(task);
          }
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
