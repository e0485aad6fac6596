import { z } from "zod";
import { ownerProcedure, router } from "@/server/ground/trpc";
import { ZCreateEndpointInput, ZDeliveryId, ZEndpointId, ZUpdateEndpointInput } from "./schema";
import {
  createEndpoint,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  redeliver,
  rotateSecret,
  sendTestEvent,
  updateEndpoint,
} from "./service";

/**
 * Settings → Webhooks, for the workspace owner in the browser only. Agents may list endpoints and
 * deliveries (MCP webhooks_list); no agent creates, changes or sees a secret.
 */
export const webhooksRouter = router({
  createEndpoint: ownerProcedure
    .input(ZCreateEndpointInput)
    .mutation(({ ctx, input }) => createEndpoint(ctx.db, { ...input, workspaceId: ctx.workspaceId, actor: ctx.actor })),
  listEndpoints: ownerProcedure.query(({ ctx }) => listEndpoints(ctx.db, { workspaceId: ctx.workspaceId })),
  updateEndpoint: ownerProcedure
    .input(ZUpdateEndpointInput)
    .mutation(({ ctx, input }) => updateEndpoint(ctx.db, { ...input, workspaceId: ctx.workspaceId, actor: ctx.actor })),
  rotateSecret: ownerProcedure
    .input(z.object({ endpointId: ZEndpointId }))
    .mutation(({ ctx, input }) => rotateSecret(ctx.db, { ...input, workspaceId: ctx.workspaceId, actor: ctx.actor })),
  deleteEndpoint: ownerProcedure
    .input(z.object({ endpointId: ZEndpointId }))
    .mutation(({ ctx, input }) => deleteEndpoint(ctx.db, { ...input, workspaceId: ctx.workspaceId, actor: ctx.actor })),
  deliveries: ownerProcedure
    .input(
      z.object({
        endpointId: ZEndpointId,
        cursor: ZDeliveryId.nullish(),
        take: z.number().int().min(1).max(100).default(20),
      }),
    )
    .query(({ ctx, input }) => listDeliveries(ctx.db, { ...input, workspaceId: ctx.workspaceId })),
  redeliver: ownerProcedure
    .input(z.object({ deliveryId: ZDeliveryId }))
    .mutation(({ ctx, input }) => redeliver(ctx.db, { ...input, workspaceId: ctx.workspaceId, actor: ctx.actor })),
  sendTest: ownerProcedure
    .input(z.object({ endpointId: ZEndpointId }))
    .mutation(({ ctx, input }) => sendTestEvent(ctx.db, { ...input, workspaceId: ctx.workspaceId, actor: ctx.actor })),
});
