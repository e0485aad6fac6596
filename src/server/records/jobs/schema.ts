import { z } from "zod";
import type { Job } from "@/generated/prisma/client";

export type JobRow = Job;

export const JOB_KINDS = ["contacts_import", "audit_run", "drafts_generate", "crm_sync"] as const;
export const JOB_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
export const ZJobKind = z.enum(JOB_KINDS);
export const ZJobStatus = z.enum(JOB_STATUSES).describe("queued, running, then succeeded, failed or cancelled.");

export const ZJobId = z.object({
  jobId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[\w-]+$/, "Not a job id."),
});

/** A job as people and agents see it: status, progress with rate and time left, error. */
export const ZJobView = z.object({
  jobId: z.string(),
  kind: ZJobKind,
  title: z.string(),
  status: ZJobStatus,
  progress: z.object({
    done: z.number().int().describe("Units done so far."),
    total: z.number().int().nullable().describe("Units in all, when known."),
    unit: z.string().describe("What is counted: rows, contacts, drafts or objects."),
    percent: z.number().nullable().describe("done / total as a percentage, when the total is known."),
    ratePerSecond: z.number().nullable().describe("Units per second since the job started."),
    secondsLeft: z.number().int().nullable().describe("Estimated seconds until done, while running."),
  }),
  error: z.string().nullable().describe("Why the job failed, in one sentence; null unless failed."),
  cancelRequested: z.boolean(),
  requestedBy: z.string(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type TJobView = z.infer<typeof ZJobView>;

export const FINISHED_STATUSES = new Set<string>(["succeeded", "failed", "cancelled"]);
