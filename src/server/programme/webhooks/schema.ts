import { z } from "zod";
import { WEBHOOK_URL_MAX } from "./endpoint-url";
import { ZWebhookEventType } from "./events";

export const MAX_ENDPOINTS_PER_WORKSPACE = 20;

export const ZEndpointId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^whe_[0-9a-f]+$/, "An endpoint id looks like whe_…");
export const ZDeliveryId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^whd_[0-9a-f]+$/, "A delivery id looks like whd_…");

const ZEvents = z
  .array(ZWebhookEventType)
  .min(1, "Choose at least one event type.")
  .max(50)
  .transform((events) => [...new Set(events)].sort());

export const ZCreateEndpointInput = z.object({
  url: z.string().min(1).max(WEBHOOK_URL_MAX),
  events: ZEvents,
  description: z.string().max(200).default(""),
});

export const ZUpdateEndpointInput = z.object({
  endpointId: ZEndpointId,
  url: z.string().min(1).max(WEBHOOK_URL_MAX).optional(),
  events: ZEvents.optional(),
  description: z.string().max(200).optional(),
  enabled: z.boolean().optional(),
});

export const ZEndpointView = z.object({
  endpointId: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  disabledReason: z.string().nullable().describe("Why the service disabled it (failing for days); null otherwise."),
  failingSince: z.date().nullable().describe("When its current run of failed deliveries began; null after a success."),
  lastSuccessAt: z.date().nullable(),
  previousSecretExpiresAt: z
    .date()
    .nullable()
    .describe("After a rotation: until when the old secret still signs beside the new one."),
  createdAt: z.date(),
});
export type TEndpointView = z.infer<typeof ZEndpointView>;

export const ZAttemptView = z.object({
  at: z.date(),
  status: z.number().int().nullable().describe("The HTTP status answered; null when there was no answer."),
  latencyMs: z.number().int(),
  response: z.string().describe("The first bytes of the answer, or why there was none."),
});

export const ZDeliveryView = z.object({
  deliveryId: z.string(),
  webhookId: z.string().describe("The event's id: the webhook-id header of every attempt and redelivery."),
  type: z.string(),
  status: z.enum(["pending", "succeeded", "failed"]),
  attempts: z.number().int(),
  nextAttemptAt: z.date().nullable().describe("When the next attempt is due (pending only)."),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  deliveredAt: z.date().nullable(),
  createdAt: z.date(),
  attemptLog: z.array(ZAttemptView).describe("The latest attempts, newest first."),
});
export type TDeliveryView = z.infer<typeof ZDeliveryView>;
