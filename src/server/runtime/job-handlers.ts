import { crmSyncJob } from "@/server/crm/job";
import { draftsGenerateJob } from "@/server/drafts/job";
import { auditRunJob } from "@/server/mailability/job";
import { contactsImportJob } from "@/server/imports/job";
import type { JobHandlers } from "@/server/jobs/runner";

/**
 * The handler of each job kind. A domain that runs long work adds its handler here
 * (contacts_import, audit_run, drafts_generate, crm_sync); a kind without one fails with a sentence.
 */
export const jobHandlers: JobHandlers = {
  contacts_import: contactsImportJob,
  audit_run: auditRunJob,
  crm_sync: crmSyncJob,
  drafts_generate: draftsGenerateJob,
};
