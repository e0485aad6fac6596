import { z } from "zod";
import { ownerProcedure, router } from "@/server/ground/trpc";
import { ZConnectInput, ZConnectionId, ZDealFilterInput, ZLeadsInput, ZScheduleInput, ZSyncId } from "./schema";
import {
  connectCrm,
  dealOptions,
  disconnectCrm,
  getSync,
  listConnections,
  listIssues,
  listSyncs,
  setDealFilter,
  setLeads,
  setSchedule,
  startSync,
} from "./service";

const ZPage = { cursor: z.string().max(64).nullish(), take: z.number().int().min(1).max(100).default(20) };

/**
 * Settings → CRM, for the workspace owner in the browser only. Connecting, disconnecting and the
 * schedule exist nowhere else: agents (MCP) can list connections and run syncs, never see, set or
 * change a connection or its credentials.
 */
export const crmRouter = router({
  connections: ownerProcedure.query(({ ctx }) => listConnections(ctx.db, { workspaceId: ctx.workspaceId })),
  connect: ownerProcedure
    .input(z.object({ credentials: ZConnectInput }))
    .mutation(({ ctx, input }) =>
      connectCrm(ctx.db, { workspaceId: ctx.workspaceId, input: input.credentials, actor: ctx.actor }),
    ),
  disconnect: ownerProcedure
    .input(z.object({ connectionId: ZConnectionId }))
    .mutation(({ ctx, input }) =>
      disconnectCrm(ctx.db, { workspaceId: ctx.workspaceId, connectionId: input.connectionId, actor: ctx.actor }),
    ),
  setSchedule: ownerProcedure
    .input(ZScheduleInput)
    .mutation(({ ctx, input }) => setSchedule(ctx.db, { ...input, workspaceId: ctx.workspaceId, actor: ctx.actor })),
  setLeads: ownerProcedure
    .input(ZLeadsInput)
    .mutation(({ ctx, input }) => setLeads(ctx.db, { ...input, workspaceId: ctx.workspaceId, actor: ctx.actor })),
  dealOptions: ownerProcedure
    .input(z.object({ connectionId: ZConnectionId }))
    .query(({ ctx, input }) => dealOptions(ctx.db, { workspaceId: ctx.workspaceId, connectionId: input.connectionId })),
  setDealFilter: ownerProcedure.input(ZDealFilterInput).mutation(({ ctx, input }) =>
    setDealFilter(ctx.db, {
      workspaceId: ctx.workspaceId,
      connectionId: input.connectionId,
      filter: { pipelines: input.pipelines, stages: input.stages },
      actor: ctx.actor,
    }),
  ),
  syncNow: ownerProcedure.input(z.object({ connectionId: ZConnectionId })).mutation(({ ctx, input }) =>
    startSync(ctx.db, {
      workspaceId: ctx.workspaceId,
      connectionId: input.connectionId,
      trigger: "owner",
      actor: ctx.actor,
    }),
  ),
  sync: ownerProcedure
    .input(z.object({ syncId: ZSyncId }))
    .query(({ ctx, input }) => getSync(ctx.db, { workspaceId: ctx.workspaceId, syncId: input.syncId })),
  syncs: ownerProcedure
    .input(z.object({ connectionId: ZConnectionId, ...ZPage }))
    .query(({ ctx, input }) => listSyncs(ctx.db, { ...input, workspaceId: ctx.workspaceId })),
  issues: ownerProcedure
    .input(z.object({ syncId: ZSyncId, severity: z.enum(["error", "warning"]).nullish(), ...ZPage }))
    .query(({ ctx, input }) => listIssues(ctx.db, { ...input, workspaceId: ctx.workspaceId })),
});
