import { z } from "zod";

export const EMAIL_STATUSES = ["queued", "sending", "sent", "failed"] as const;
export const ZEmailStatus = z.enum(EMAIL_STATUSES);

export const ZEmailMessageId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^eml_[0-9a-f]+$/, "A message id looks like eml_…");

export const ZOutboxInput = z.object({
  status: ZEmailStatus.optional(),
  cursor: ZEmailMessageId.nullish(),
  take: z.number().int().min(1).max(100).default(25),
});

/** One message as the outbox page lists it. */
export interface TEmailSummary {
  messageId: string;
  to: string;
  kind: string;
  subject: string;
  status: (typeof EMAIL_STATUSES)[number];
  attempts: number;
  /** While queued after a failed attempt: when it is tried again. */
  nextAttemptAt: Date | null;
  lastError: string | null;
  /** "smtp" or "log" once sent. */
  deliveredVia: string | null;
  providerResponse: string | null;
  sentAt: Date | null;
  createdAt: Date;
}

/** One message with what it says. */
export interface TEmailDetail extends TEmailSummary {
  text: string;
  html: string;
  headers: Record<string, string>;
  providerMessageId: string | null;
}
