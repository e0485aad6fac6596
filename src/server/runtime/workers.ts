import type { PrismaClient } from "@/generated/prisma/client";
import { expireCards } from "@/server/programme/confirmations/expire-cards";
import { startLifecycleWorker } from "@/server/programme/entry/lifecycle/worker";
import { startCrmScheduler } from "@/server/programme/crm/schedule";
import { startJobWorker } from "@/server/records/jobs/worker";
import { jobHandlers } from "./job-handlers";
import { type WorkerSettings, workerSettings } from "./worker-settings";
import { startWebhookWorker } from "@/server/programme/webhooks/worker";
import { startSandboxPost } from "@/server/programme/fulfilment/sandbox-post";
import { startEmailWorker } from "@/server/records/email/worker";

/**
 * The background work of one process: the entry-event lifecycle and the jobs (imports, audits,
 * renders, CRM syncs), the CRM sync schedule, webhook deliveries, the email outbox and the sandbox printer's simulated post, all claiming their work from the database. Sizes
 * from the environment (worker-settings.ts): WORKER_BATCH_SIZE events (a batch), their lease, and
 * JOB_CONCURRENCY jobs at a time, read by the caller at its start (a bad setting throws before
 * anything starts).
 */
export function startWorkers(prisma: PrismaClient, settings: WorkerSettings = workerSettings()) {
  const lifecycle = startLifecycleWorker(prisma, {
    batchSize: settings.batchSize,
    leaseMs: settings.leaseMs,
    maintenance: expireCards,
  });
  const jobs = startJobWorker(prisma, { handlers: jobHandlers, concurrency: settings.jobConcurrency });
  // Scheduled CRM syncs: due times are claimed from the database, so every worker may tick.
  const crm = startCrmScheduler(prisma);
  // Outbound webhooks: deliveries the database's triggers queued, sent and retried.
  const webhooks = startWebhookWorker(prisma);
  // The sandbox printer's simulated post: its mailed pieces move through tracking events.
  const sandboxPost = startSandboxPost(prisma);
  // The email outbox: messages sent through SMTP_URL (or written to the log), retried on failure.
  const email = startEmailWorker(prisma);
  return {
    async stop() {
      await Promise.all([lifecycle.stop(), jobs.stop(), crm.stop(), webhooks.stop(), sandboxPost.stop(), email.stop()]);
    },
  };
}
