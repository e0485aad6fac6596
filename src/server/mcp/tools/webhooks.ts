import { z } from "zod";
import { ZDeliveryView, ZEndpointId, ZEndpointView } from "@/server/webhooks/schema";
import { listDeliveries, listEndpoints } from "@/server/webhooks/service";
import { defineTool } from "../tool";

/**
 * The workspace's outbound webhooks, for agents: read only. Creating, changing or deleting an
 * endpoint and its signing secret is for the owner in the browser (Settings → Webhooks).
 */
export const webhookTools = [
  defineTool({
    name: "webhooks_list",
    title: "List webhook endpoints and deliveries",
    description:
      "Without endpointId: the workspace's webhook endpoints (URL, the event types each receives, enabled or disabled and why, failing since, last success), never their signing secrets. With endpointId: that endpoint's deliveries, newest first, a page at a time (event type, webhook-id, status pending/succeeded/failed, attempts with HTTP status, latency and the first bytes of the answer). Read only: only the workspace owner adds, changes or deletes endpoints, in the browser (Settings → Webhooks).",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({
      endpointId: ZEndpointId.optional().describe("An endpoint (whe_…) to list its deliveries."),
      cursor: z.string().max(64).optional().describe("nextCursor of the previous page of deliveries."),
    }),
    result: z.object({ endpoints: z.array(ZEndpointView), deliveries: z.array(ZDeliveryView), nextCursor: z.string().nullable() }),
    run: async (ctx, a) => {
      const endpoints = await listEndpoints(ctx.db, { workspaceId: ctx.workspaceId });
      if (!a.endpointId) return { requested: "The webhook endpoints.", changed: [], result: { endpoints, deliveries: [], nextCursor: null } };
      const page = await listDeliveries(ctx.db, { workspaceId: ctx.workspaceId, endpointId: a.endpointId, cursor: a.cursor, take: 20 });
      return {
        requested: `Deliveries of webhook endpoint ${a.endpointId}.`,
        changed: [],
        result: { endpoints: endpoints.filter((e) => e.endpointId === a.endpointId), deliveries: page.deliveries, nextCursor: page.nextCursor },
      };
    },
    errorHints: { not_found: "Call webhooks_list without endpointId to see the endpoints' ids." },
  }),
];
