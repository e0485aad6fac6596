import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { agentFor, toolErrorOf, toolResult } from "@/test/mcp";
import { MCP_SCOPES } from "@/server/records/oauth/scopes";
import { MCP_TOOLS } from "./catalog";
import { handleMcpRequest } from "./handler";
import { llmsTxt } from "./published/llms-txt";
import { serverCard } from "./published/server-card";
import { TOOLSETS, type ToolSelection, type TToolset, selectionOf, toolsetOf } from "./toolsets";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8");
const KB = 1024;
const connect = async (workspaceId: string, tools: ToolSelection) =>
  agentFor(prisma, workspaceId, [...MCP_SCOPES], false, "owner", tools);

describe("toolsets and the read-only mode", () => {
  it("the endpoint reads X-MCP-Toolsets or ?toolsets=, and X-MCP-Readonly or ?readonly=", () => {
    const at = (query: string, headers: Record<string, string> = {}) =>
      selectionOf(new Request(`https://dm.example/api/mcp${query}`, { method: "POST", headers }));
    expect(at("")).toEqual({ toolsets: null, readonly: false });
    expect(at("", { "X-MCP-Toolsets": "people, Campaigns,people" })).toEqual({
      toolsets: ["people", "campaigns"],
      readonly: false,
    });
    expect(at("?toolsets=results&readonly=true")).toEqual({ toolsets: ["results"], readonly: true });
    expect(at("?toolsets=results", { "X-MCP-Toolsets": "settings", "X-MCP-Readonly": "true" })).toEqual({
      toolsets: ["settings"],
      readonly: true,
    });
    expect(at("?toolsets=people,billing")).toEqual({
      error:
        "Unknown toolset “billing” in X-MCP-Toolsets (or ?toolsets=): the toolsets are people, creative, campaigns, results, settings, as a comma list.",
    });
    expect(at("?readonly=yes")).toEqual({ error: "X-MCP-Readonly (or ?readonly=) is true or false, not “yes”." });
  });

  it("an unknown toolset is a 400 naming the known ones, before anything else is read", async () => {
    const res = await handleMcpRequest(
      new Request("http://localhost:3000/api/mcp?toolsets=everything", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      }),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toContain("Unknown toolset “everything”");
    expect(body.error.message).toContain("people, creative, campaigns, results, settings");
  });

  it("every tool is in one toolset; each toolset lists its own tools, the summary and the confirmation tools, within 24 KB", async () => {
    for (const tool of MCP_TOOLS) expect(() => toolsetOf(tool.name)).not.toThrow();
    const o = await createOwnerWorkspace(prisma);
    for (const set of Object.keys(TOOLSETS) as TToolset[]) {
      const client = await connect(o.workspaceId, { toolsets: [set], readonly: false });
      const list = await client.listTools();
      const names = list.tools.map((t) => t.name);
      const expected = MCP_TOOLS.filter((t) => [set, "always"].includes(toolsetOf(t.name))).map((t) => t.name);
      expect(names).toEqual(expected);
      expect(names).toEqual(expect.arrayContaining(["workspace_get_summary", "confirmations_get"]));
      expect(bytes(list), set).toBeLessThanOrEqual(24 * KB);
    }
    const people = await connect(o.workspaceId, { toolsets: ["people"], readonly: false });
    expect((await people.listTools()).tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["contacts_import", "audiences_create", "suppressions_add", "audits_run", "imports_get"]),
    );
    // A tool of a toolset not named is refused, and nothing is written.
    const refused = toolErrorOf(
      await people.callTool({ name: "campaigns_create_draft", arguments: { name: "Nope", format: "postcard" } }),
    )!;
    expect(refused).toMatchObject({
      code: "unknown_tool",
      message: expect.stringContaining("campaigns_create_draft is in the campaigns toolset"),
    });
    expect(await prisma.campaign.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
  });

  it("read-only lists only read-only tools and refuses a call to a write tool; reads still work", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await connect(o.workspaceId, { toolsets: null, readonly: true });
    const list = await client.listTools();
    expect(list.tools.map((t) => t.name)).toEqual(MCP_TOOLS.filter((t) => t.kind === "read").map((t) => t.name));
    expect(list.tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    const error = toolErrorOf(await client.callTool({ name: "audiences_create", arguments: { name: "Buyers" } }))!;
    expect(error).toMatchObject({
      code: "unknown_tool",
      message:
        "This connection is read-only (X-MCP-Readonly: true), and audiences_create writes: nothing was done. Connect without the read-only mode to use it.",
    });
    expect(await prisma.audience.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
    expect(toolResult(await client.callTool({ name: "audiences_list", arguments: {} }))).toMatchObject({
      audiences: [],
    });
    // Read-only within one toolset: its reads, and the summary and confirmation reads.
    const settings = await connect(o.workspaceId, { toolsets: ["settings"], readonly: true });
    expect((await settings.listTools()).tools.map((t) => t.name)).toEqual(
      MCP_TOOLS.filter((t) => t.kind === "read" && ["settings", "always"].includes(toolsetOf(t.name))).map(
        (t) => t.name,
      ),
    );
  });

  it("the server card and /llms.txt say how to ask for toolsets and the read-only mode", () => {
    const meta = serverCard("https://dm.example")._meta["io.direct-mail-programme/toolsets"];
    expect(meta).toMatchObject({ header: "X-MCP-Toolsets", query: "toolsets", readonlyHeader: "X-MCP-Readonly" });
    expect(Object.keys(meta.toolsets)).toEqual(["people", "creative", "campaigns", "results", "settings"]);
    expect(meta.toolsets.people.tools).toContain("contacts_import");
    expect(meta.always).toEqual([
      "workspace_get_summary",
      "confirmations_list",
      "confirmations_get",
      "confirmations_withdraw",
    ]);
    const text = llmsTxt("https://dm.example");
    for (const words of [
      "X-MCP-Toolsets",
      "?toolsets=",
      "X-MCP-Readonly: true",
      "?readonly=true",
      "settings (plans, contracts, CRM, webhooks)",
    ])
      expect(text).toContain(words);
  });
});
