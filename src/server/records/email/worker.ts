import type { PrismaClient } from "@/generated/prisma/client";
import { napper } from "@/server/ground/platform/nap";
import { type ClaimScope, claimEmails, pruneSentEmails, type SendDeps, sendClaimed } from "./sender";
import { type EmailSettings, emailSettings } from "./settings";
import { createTransport } from "./transport";
import { onEmailQueued } from "./wake";

export interface EmailWorkerOptions {
  /** Where mail goes; from SMTP_URL and EMAIL_FROM when omitted. */
  settings?: EmailSettings;
  /** Messages claimed and sent together. */
  batchSize?: number;
  /** How often an idle worker looks for due messages. */
  pollMs?: number;
  deps?: Partial<SendDeps>;
  /** Only these messages (tests that run a worker beside others on one database). */
  scope?: ClaimScope;
}

const PRUNE_EVERY_MS = 3600_000;

/**
 * The email loop of one process, beside the lifecycle, the jobs and the webhooks: claims due
 * messages a batch at a time, sends them, retries failures on the schedule, and once an hour drops
 * messages past retention.
 */
export function startEmailWorker(prisma: PrismaClient, options: EmailWorkerOptions = {}) {
  const settings = options.settings ?? emailSettings();
  const log = options.deps?.log ?? ((line: string) => console.log(line));
  const deps: SendDeps = {
    transport: createTransport(settings, log),
    from: settings.from,
    fromAddress: settings.fromAddress,
    clock: () => new Date(),
    log,
    ...options.deps,
  };
  const batchSize = options.batchSize ?? 8;
  const pollMs = options.pollMs ?? 1000;
  const { nap, wake } = napper();
  const unsubscribe = onEmailQueued(wake);
  let stopping = false;
  let lastPrune = 0;

  const loop = (async () => {
    while (!stopping) {
      try {
        const now = deps.clock();
        const { token, ids } = await claimEmails(prisma, { limit: batchSize, now, scope: options.scope });
        await sendClaimed(prisma, ids, token, deps);
        // A full batch: more may be due at once.
        if (ids.length === batchSize) continue;
        if (now.getTime() - lastPrune > PRUNE_EVERY_MS) {
          lastPrune = now.getTime();
          await pruneSentEmails(prisma, now);
        }
      } catch (error) {
        console.error("[email] worker loop error", error);
      }
      await nap(pollMs);
    }
    deps.transport.close();
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
