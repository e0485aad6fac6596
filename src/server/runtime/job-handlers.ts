import { z } from "zod";
import type { JobKind } from "@/generated/prisma/client";
import { type JobHandler, jobInput } from "@/server/records/jobs/handler";
import type { JobHandlers } from "@/server/records/jobs/runner";

/**
 * A handler whose module is loaded on its kind's first job. The worker is compiled into chunks
 * (scripts/bundle.mjs), so a kind's code and the packages only it uses (the renderer's for drafts,
 * the CRM clients for syncs) are not in a worker's memory until it runs such a job: a worker that
 * only imports never loads them. The input is validated by the loaded handler's own schema, with
 * the runner's sentence when it does not match.
 */
function onFirstUse(kind: JobKind, load: () => Promise<JobHandler>): JobHandler {
  let loaded: Promise<JobHandler> | null = null;
  return {
    kind,
    input: z.unknown(),
    async run(run) {
      const handler = await (loaded ??= load().catch((error) => ((loaded = null), Promise.reject(error))));
      return handler.run({ ...run, input: jobInput(handler, run.job.input) });
    },
  };
}

/**
 * The handler of each job kind. A domain that runs long work adds its handler here
 * (contacts_import, audit_run, drafts_generate, crm_sync); a kind without one fails with a sentence.
 */
export const jobHandlers: JobHandlers = {
  contacts_import: onFirstUse(
    "contacts_import",
    async () => (await import("@/server/programme/imports/job")).contactsImportJob,
  ),
  audit_run: onFirstUse("audit_run", async () => (await import("@/server/programme/mailability/job")).auditRunJob),
  crm_sync: onFirstUse("crm_sync", async () => (await import("@/server/programme/crm/job")).crmSyncJob),
  drafts_generate: onFirstUse(
    "drafts_generate",
    async () => (await import("@/server/programme/drafts/job")).draftsGenerateJob,
  ),
};
