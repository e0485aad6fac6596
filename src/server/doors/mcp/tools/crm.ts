import { z } from "zod";
import { ZConnectionId, ZConnectionView, ZIssueView, ZSyncId, ZSyncView } from "@/server/programme/crm/schema";
import { getSync, listConnections, listIssues, startSync } from "@/server/programme/crm/service";
import { defineTool } from "../tool";

/**
 * The workspace's CRM, for agents: which CRMs are connected and how their syncs went, and starting
 * a sync. Connecting, disconnecting and credentials are for the owner in the browser only
 * (Settings → CRM): no tool sees, sets or changes them. A sync only reads from the CRM.
 */
export const crmTools = [
  defineTool({
    name: "crm_connections_list",
    title: "List CRM connections",
    description:
      "The workspace's CRM connections (HubSpot, Salesforce; at most one of each): name, kind, status (connected, or disconnected with what was synced kept), the schedule, and the latest sync with its status and counts by object type. Never credentials. An empty list means no CRM is connected: only an admin or the owner can connect one, in the browser (Settings → CRM).",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({}),
    result: z.object({ connections: z.array(ZConnectionView) }),
    run: async (ctx) => ({
      requested: "The CRM connections.",
      changed: [],
      result: { connections: await listConnections(ctx.db, { workspaceId: ctx.workspaceId }) },
    }),
  }),
  defineTool({
    name: "crm_sync_start",
    title: "Sync from a CRM",
    description:
      "Starts a sync from a connected CRM: companies/accounts, contacts (with addresses), lists/campaigns as audiences, opt-outs as suppressions, and deals/opportunities as account outcomes (opportunity_created and pipeline_dollars at creation, closed_won when won). Incremental after the first. Reads the CRM only; changes contacts, accounts, audiences, suppressions and outcomes here. Answers at once (queued or running; a sync already running is returned, alreadyRunning true); follow it with crm_sync_get.",
    scope: "contacts:write",
    kind: "write",
    idempotent: true,
    destructive: true,
    input: z.object({ connectionId: ZConnectionId.describe("The connection (crm_…) from crm_connections_list.") }),
    result: ZSyncView.extend({
      alreadyRunning: z
        .boolean()
        .describe("True when a sync of this connection was already queued or running: this is that sync."),
    }),
    run: async (ctx, a) => {
      const started = await startSync(ctx.db, {
        workspaceId: ctx.workspaceId,
        connectionId: a.connectionId,
        trigger: "agent",
        actor: ctx.actor,
      });
      return {
        requested: `Sync from CRM connection ${a.connectionId}.`,
        changed: started.alreadyRunning
          ? []
          : [`Sync ${started.view.syncId} (${started.view.mode}) queued; follow it with crm_sync_get.`],
        result: { ...started.view, alreadyRunning: started.alreadyRunning },
      };
    },
    errorHints: {
      not_found: "Find the connection's id with crm_connections_list.",
      invalid_state: "The owner must connect the CRM again in Settings → CRM; tell them.",
    },
  }),
  defineTool({
    name: "crm_sync_get",
    title: "Read a CRM sync",
    description:
      "One sync: status, progress, counts per object type, outcomes recorded, audience members, suppressions added, 429 waits, and a page of its issues: one sentence per object not written (error) or written without a value (warning). Pass issuesCursor back for the next page.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({
      syncId: ZSyncId.describe("The syncId crm_sync_start returned (cs_…)."),
      severity: z.enum(["error", "warning"]).optional().describe("Only issues of this severity."),
      issuesCursor: z.string().max(64).optional().describe("nextCursor of the previous page of issues."),
      issuesTake: z.number().int().min(1).max(100).default(25).describe("Issues per page, 1 to 100."),
    }),
    result: ZSyncView.extend({ issues: z.array(ZIssueView), issuesNextCursor: z.string().nullable() }),
    run: async (ctx, a) => {
      const sync = await getSync(ctx.db, { workspaceId: ctx.workspaceId, syncId: a.syncId });
      const issues = await listIssues(ctx.db, {
        workspaceId: ctx.workspaceId,
        syncId: a.syncId,
        severity: a.severity,
        cursor: a.issuesCursor,
        take: a.issuesTake,
      });
      return {
        requested: `CRM sync ${a.syncId}.`,
        changed: [],
        result: { ...sync, issues: issues.issues, issuesNextCursor: issues.nextCursor },
      };
    },
    errorHints: { not_found: "Use the syncId from crm_sync_start, or lastSync.syncId from crm_connections_list." },
  }),
];
