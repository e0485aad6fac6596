import { z } from "zod";
import type { TDeliveryView, TEndpointView } from "@/server/programme/webhooks/schema";
import { ZEndpointId } from "@/server/programme/webhooks/schema";
import { listDeliveries, listEndpoints } from "@/server/programme/webhooks/service";
import { defineTool } from "../tool";

const iso = (d: Date | null) => d?.toISOString() ?? null;

const ZEndpoint = z.object({
  endpointId: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  disabledReason: z.string().nullable(),
  failingSince: z.string().nullable(),
  lastSuccessAt: z.string().nullable(),
  createdAt: z.string(),
});
const endpoint = (e: TEndpointView): z.infer<typeof ZEndpoint> => ({
  endpointId: e.endpointId,
  url: e.url,
  description: e.description,
  events: e.events,
  enabled: e.enabled,
  disabledReason: e.disabledReason,
  failingSince: iso(e.failingSince),
  lastSuccessAt: iso(e.lastSuccessAt),
  createdAt: e.createdAt.toISOString(),
});

const ZDelivery = z.object({
  deliveryId: z.string(),
  webhookId: z.string(),
  type: z.string(),
  status: z.enum(["pending", "succeeded", "failed"]),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
  attemptLog: z.array(
    z.object({
      at: z.string(),
      status: z.number().int().nullable(),
      latencyMs: z.number().int(),
      response: z.string(),
    }),
  ),
});
const delivery = (d: TDeliveryView): z.infer<typeof ZDelivery> => ({
  ...d,
  nextAttemptAt: iso(d.nextAttemptAt),
  deliveredAt: iso(d.deliveredAt),
  createdAt: d.createdAt.toISOString(),
  attemptLog: d.attemptLog.map((a) => ({ ...a, at: a.at.toISOString() })),
});

/**
 * The workspace's outbound webhooks, for agents: read only. Creating, changing or deleting an
 * endpoint and its signing secret is for the owner in the browser (Settings → Webhooks).
 */
export const webhookTools = [
  defineTool({
    name: "webhooks_list",
    title: "List webhook endpoints and deliveries",
    description:
      "Without endpointId: the webhook endpoints (never secrets). With it: its deliveries, newest first, each attempt's HTTP status, latency and answer.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({
      endpointId: ZEndpointId.optional().describe("An endpoint (whe_…) to list its deliveries."),
      cursor: z.string().max(64).optional().describe("nextCursor of the previous page."),
    }),
    result: z.object({
      endpoints: z.array(ZEndpoint),
      deliveries: z.array(ZDelivery),
      nextCursor: z.string().nullable(),
    }),
    run: async (ctx, a) => {
      const endpoints = (await listEndpoints(ctx.db, { workspaceId: ctx.workspaceId })).map(endpoint);
      if (!a.endpointId)
        return {
          requested: "The webhook endpoints.",
          changed: [],
          result: { endpoints, deliveries: [], nextCursor: null },
        };
      const page = await listDeliveries(ctx.db, {
        workspaceId: ctx.workspaceId,
        endpointId: a.endpointId,
        cursor: a.cursor,
        take: 20,
      });
      return {
        requested: `Deliveries of webhook endpoint ${a.endpointId}.`,
        changed: [],
        result: {
          endpoints: endpoints.filter((e) => e.endpointId === a.endpointId),
          deliveries: page.deliveries.map(delivery),
          nextCursor: page.nextCursor,
        },
      };
    },
    errorHints: { not_found: "Call webhooks_list without endpointId to see the endpoints' ids." },
  }),
];
