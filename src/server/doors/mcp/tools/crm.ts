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
      "The CRM connections (HubSpot, Salesforce): status (a disconnected one keeps what was synced), schedule, latest sync with counts. Never credentials. Only an admin or the owner connects one (Settings → CRM).",
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
      "Starts a sync from a connected CRM: accounts, contacts, lists as audiences, opt-outs as suppressions, deals as outcomes. Incremental after the first; reads the CRM only. Answers at once (or the running one, alreadyRunning true); follow with crm_sync_get.",
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
      "One sync: status, progress, counts per object type, 429 waits, and a page of issues (not written: error; written without a value: warning); issuesCursor pages on.",
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
