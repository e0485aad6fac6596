import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type LoggingMessageNotification, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { baseUrl } from "@/server/ground/platform/base-url";
import { hashToken } from "@/server/records/oauth/authorize";
import { mcpResource } from "@/server/records/oauth/config";
import { MCP_SCOPES } from "@/server/records/oauth/scopes";
import { testDatabase } from "@/test/database";
import { createAudience, createOwnerWorkspace, uniq } from "@/test/factories";
import { agentFor, toolResult } from "@/test/mcp";
import { handleMcpRequest } from "./handler";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

/** Collects the log notifications a client receives. */
function logsOf(client: Client) {
  const logs: LoggingMessageNotification["params"][] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logs.push(n.params);
  });
  return logs;
}
const messagesOf = (logs: LoggingMessageNotification["params"][]) =>
  logs.map((l) => `${l.level} ${l.logger}: ${(l.data as { message: string }).message}`);

const CSV =
  "First Name,Last Name,Email,Company\nAda,Lovelace,ada@a.example,Analytical\nGrace,Hopper,grace@b.example,Navy\n";

describe("MCP logging", () => {
  it("says it supports logging and completions; with no level set, a long job sends no log notification", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(prisma, o.workspaceId);
    expect(client.getServerCapabilities()).toMatchObject({ logging: {}, completions: {} });
    const logs = logsOf(client);
    toolResult(await client.callTool({ name: "contacts_import", arguments: { csv: CSV } }));
    expect(logs).toEqual([]);
  });

  it("logging/setLevel info: an import sends its start and its end, about the import the call made", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(prisma, o.workspaceId);
    const logs = logsOf(client);
    expect(await client.setLoggingLevel("info")).toEqual({});
    const report = toolResult<{ importId: string; created: number }>(
      await client.callTool({ name: "contacts_import", arguments: { csv: CSV } }),
    );
    expect(report.created).toBe(2);
    expect(messagesOf(logs)).toEqual([
      `info contacts_import: Import ${report.importId}: 2 rows received, importing now.`,
      `notice contacts_import: Import ${report.importId} finished: 2 of 2 rows.`,
    ]);
    expect(logs[1].data).toMatchObject({ importId: report.importId, status: "succeeded" });
    // Following it sends its state again.
    logs.length = 0;
    await client.callTool({ name: "imports_get", arguments: { importId: report.importId } });
    expect(messagesOf(logs)).toEqual([`notice imports_get: Import ${report.importId} finished: 2 of 2 rows.`]);
  });

  it("a level is respected: at warning only the refused rows are told, and nothing below", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(prisma, o.workspaceId);
    const logs = logsOf(client);
    await client.setLoggingLevel("warning");
    const res = await client.callTool({
      name: "contacts_import",
      arguments: { csv: `${CSV},,,Nobody Inc\n` },
    });
    expect(res.isError).toBe(true);
    const importId = (res.structuredContent as { result: { importId: string } }).result.importId;
    expect(messagesOf(logs)).toEqual([
      `warning contacts_import: Import ${importId}: 1 rows refused; imports_get lists them with the reason.`,
    ]);
    logs.length = 0;
    await client.setLoggingLevel("error");
    await client.callTool({ name: "imports_get", arguments: { importId } });
    expect(logs).toEqual([]);
  });

  it("an audit and a drafts job send their progress and their end", async () => {
    const o = await createOwnerWorkspace(prisma);
    const { audience } = await createAudience(prisma, o.workspaceId, { accounts: 2, perAccount: 2 });
    const client = await agentFor(prisma, o.workspaceId);
    const logs = logsOf(client);
    await client.setLoggingLevel("debug");
    const started = toolResult<{ auditId: string; status: string }>(
      await client.callTool({ name: "audits_run", arguments: { audienceId: audience.id } }),
    );
    expect(started.status).toBe("succeeded");
    await client.callTool({ name: "audits_get", arguments: { auditId: started.auditId } });
    expect(messagesOf(logs)).toEqual([
      `notice audits_run: Audit ${started.auditId} finished.`,
      `notice audits_get: Audit ${started.auditId} finished: 4 contacts: 4 mailable, 0 fixable, 0 unmailable.`,
    ]);

    logs.length = 0;
    const campaign = toolResult<{ id: string }>(
      await client.callTool({
        name: "campaigns_create_draft",
        arguments: { name: "Logged", format: "postcard", audienceId: audience.id },
      }),
    );
    const job = toolResult<{ jobId: string; status: string }>(
      await client.callTool({ name: "drafts_generate", arguments: { campaignId: campaign.id } }),
    );
    expect(job.status).toBe("queued");
    expect(messagesOf(logs)).toEqual([`info drafts_generate: Drafts job ${job.jobId} queued: 0 of 4 drafts (0%).`]);
    expect(logs[0].data).toMatchObject({ jobId: job.jobId, status: "queued", progress: { done: 0, total: 4 } });
  });

  it("a level that is not one of MCP's is refused with invalid params, and the level set before holds", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(prisma, o.workspaceId);
    const logs = logsOf(client);
    await client.setLoggingLevel("notice");
    await expect(client.setLoggingLevel("verbose" as "info")).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Unknown log level “verbose”: the levels are debug, info, notice"),
    });
    const report = toolResult<{ importId: string }>(
      await client.callTool({ name: "contacts_import", arguments: { csv: CSV } }),
    );
    expect(messagesOf(logs)).toEqual([`notice contacts_import: Import ${report.importId} finished: 2 of 2 rows.`]);
  });
});

describe("MCP completions", () => {
  const complete = (client: Client, prompt: string, name: string, value: string) =>
    client.complete({ ref: { type: "ref/prompt", name: prompt }, argument: { name, value } });

  it("audience, campaign and design ids by name or id, only of the caller's workspace", async () => {
    const o = await createOwnerWorkspace(prisma);
    const other = await createOwnerWorkspace(prisma);
    const buyers = await prisma.audience.create({ data: { workspaceId: o.workspaceId, name: "Buyers 2026" } });
    const churned = await prisma.audience.create({ data: { workspaceId: o.workspaceId, name: "Churned" } });
    await prisma.audience.create({ data: { workspaceId: other.workspaceId, name: "Buyers elsewhere" } });
    const client = await agentFor(prisma, o.workspaceId);

    expect((await complete(client, "audit_crm_for_mail", "audienceId", "buy")).completion).toEqual({
      values: [buyers.id],
      total: 1,
      hasMore: false,
    });
    expect((await complete(client, "draft_campaign_for_audience", "audienceId", "")).completion.values).toEqual([
      buyers.id,
      churned.id,
    ]);
    expect(
      (await complete(client, "audit_crm_for_mail", "audienceId", churned.id.slice(0, 8))).completion.values,
    ).toContain(churned.id);
    expect((await complete(client, "launch_rest_entry_campaign", "audienceName", "UR")).completion.values).toEqual([
      "Churned",
    ]);

    const design = toolResult<{ id: string }>(
      await client.callTool({
        name: "designs_create",
        arguments: { name: "Bold spring", format: "postcard", layout: "bold" },
      }),
    );
    expect((await complete(client, "draft_campaign_for_audience", "designId", "spring")).completion.values).toEqual([
      design.id,
    ]);
    const campaign = toolResult<{ id: string }>(
      await client.callTool({ name: "campaigns_create_draft", arguments: { name: "Spring push", format: "postcard" } }),
    );
    expect((await complete(client, "report_campaign_lift", "campaignId", "push")).completion.values).toEqual([
      campaign.id,
    ]);
    expect((await complete(client, "report_campaign_lift", "campaignId", "nothing like it")).completion).toEqual({
      values: [],
      total: 0,
      hasMore: false,
    });
    // An argument that names nothing in the workspace has no completions; an unknown prompt is invalid params.
    expect((await complete(client, "plan_holdout_test", "baselineRate", "0.")).completion.values).toEqual([]);
    await expect(complete(client, "no_such_prompt", "audienceId", "")).rejects.toMatchObject({ code: -32602 });
  });

  it("at most 100 values, saying there are more; none for a connection that may not read the workspace", async () => {
    const o = await createOwnerWorkspace(prisma);
    await prisma.audience.createMany({
      data: Array.from({ length: 105 }, (_, i) => ({
        workspaceId: o.workspaceId,
        name: `List ${String(i).padStart(3, "0")}`,
      })),
    });
    const client = await agentFor(prisma, o.workspaceId);
    const { completion } = await complete(client, "audit_crm_for_mail", "audienceId", "list");
    expect(completion.values).toHaveLength(100);
    expect(completion).toMatchObject({ total: 105, hasMore: true });
    const writer = await agentFor(
      prisma,
      o.workspaceId,
      MCP_SCOPES.filter((s) => s !== "workspace:read"),
    );
    expect((await complete(writer, "audit_crm_for_mail", "audienceId", "list")).completion.values).toEqual([]);
  });
});

describe("over the streamable HTTP endpoint", () => {
  /** An agent token of this workspace, as the OAuth flow would issue it. */
  async function tokenFor(workspaceId: string, userId: string) {
    const resource = mcpResource(baseUrl());
    const client = await prisma.oAuthClient.create({
      data: { clientId: `https://${uniq()}.example/client.json`, source: "cimd", name: "HTTP agent", redirectUris: [] },
    });
    const grant = await prisma.oAuthGrant.create({
      data: { workspaceId, userId, clientId: client.id, scopes: [...MCP_SCOPES], resource },
    });
    const token = `dma_${uniq()}`;
    await prisma.oAuthToken.create({
      data: {
        grantId: grant.id,
        kind: "access",
        hash: hashToken(token),
        scopes: [...MCP_SCOPES],
        resource,
        expiresAt: new Date(Date.now() + 3_600_000),
      },
    });
    return { token, grantId: grant.id, resource };
  }
  async function connect(token: string, resource: string) {
    const transport = new StreamableHTTPClientTransport(new URL(resource), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      fetch: (url, init) => handleMcpRequest(new Request(url, init)),
    });
    const client = new Client({ name: "http-test", version: "1" });
    await client.connect(transport);
    return client;
  }

  it("setLevel is kept for the connection's later requests, and an import's log arrives before its result", async () => {
    const o = await createOwnerWorkspace(prisma);
    const { token, grantId, resource } = await tokenFor(o.workspaceId, o.user.id);
    const first = await connect(token, resource);
    expect(first.getServerCapabilities()).toMatchObject({ logging: {}, completions: {} });
    await first.setLoggingLevel("info");
    expect((await prisma.oAuthGrant.findUniqueOrThrow({ where: { id: grantId } })).mcpLogLevel).toBe("info");

    // Every request is a new server: the level comes from the grant.
    const client = await connect(token, resource);
    const logs = logsOf(client);
    const report = toolResult<{ importId: string }>(
      await client.callTool({ name: "contacts_import", arguments: { csv: CSV } }),
    );
    expect(messagesOf(logs)).toEqual([
      `info contacts_import: Import ${report.importId}: 2 rows received, importing now.`,
      `notice contacts_import: Import ${report.importId} finished: 2 of 2 rows.`,
    ]);
    const audience = await prisma.audience.findFirstOrThrow({ where: { workspaceId: o.workspaceId } });
    const { completion } = await client.complete({
      ref: { type: "ref/prompt", name: "audit_crm_for_mail" },
      argument: { name: "audienceId", value: "" },
    });
    expect(completion.values).toEqual([audience.id]);
    await client.close();
    await first.close();
  }, 60_000);
});
