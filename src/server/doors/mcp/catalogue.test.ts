import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { serverCard } from "@/server/doors/mcp/published/server-card";
import { testDatabase } from "@/test/database";
import { createAudience, createOwnerWorkspace } from "@/test/factories";
import { API_KEY_SCOPES } from "@/server/ground/access/principals";
import { MCP_SCOPES } from "@/server/records/oauth/scopes";
import { agentFor, toolErrorOf, toolResult } from "@/test/mcp";
import { MCP_TOOLS } from "./catalog";
import { toolCatalogue } from "./listing";
import { MCP_PROMPTS } from "./prompts";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8");

describe("the catalogue an agent reads first", () => {
  it("tools/list of a full grant is within 56 KB, the server card within 32 KB, with no bound that means nothing", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(prisma, o.workspaceId);
    const list = await client.listTools();
    expect(list.tools).toHaveLength(MCP_TOOLS.length);
    expect(bytes(list)).toBeLessThanOrEqual(56 * 1024);
    const text = JSON.stringify(list);
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(text).not.toContain("json-schema.org");
    const card = serverCard("https://dm.example");
    expect(bytes(card)).toBeLessThanOrEqual(32 * 1024);
    // The card points to the full lists, which hold every tool's result schema and the envelope once.
    expect(card._meta).toMatchObject({ "io.direct-mail-programme/tools": "https://dm.example/agents/tools.json" });
    const full = toolCatalogue("https://dm.example");
    expect(full.tools.map((t) => t.name)).toEqual(MCP_TOOLS.map((t) => t.name));
    expect(full.$defs.envelope.properties.awaitingConfirmation.items).toEqual({ $ref: "#/$defs/card" });
    expect(JSON.stringify(full).match(/"cardId"/g)?.length).toBeLessThan(MCP_TOOLS.length);
  }, 120_000);

  it("an unknown argument key is refused naming it and the keys that exist there; nothing is written", async () => {
    const o = await createOwnerWorkspace(prisma);
    const { audience } = await createAudience(prisma, o.workspaceId, { accounts: 1, perAccount: 1 });
    const client = await agentFor(prisma, o.workspaceId);
    const created = await client.callTool({
      name: "campaigns_create_draft",
      arguments: { name: "Strict", format: "postcard", audienceId: audience.id },
    });
    const id = (created.structuredContent as { result: { id: string } }).result.id;
    const res = await client.callTool({
      name: "campaigns_update_draft",
      arguments: { campaignId: id, changes: { holdout_share: 0.1, budget: 500 } },
    });
    const error = toolErrorOf(res)!;
    expect(error.code).toBe("invalid_argument");
    expect(error.message).toContain("“changes.holdout_share”, “changes.budget”");
    expect(error.fields?.map((f) => f.pointer)).toEqual(["/changes/holdout_share", "/changes/budget"]);
    expect(error.fields?.[0].detail).toMatch(/keys that exist here are: .*holdoutShare.*budgetCents/);
    const campaign = await prisma.campaign.findUniqueOrThrow({ where: { id } });
    expect([campaign.holdoutShare, campaign.budgetCents]).toEqual([0.2, 0]);
    // At the top level too, and on a read.
    const top = toolErrorOf(
      await client.callTool({ name: "campaigns_get", arguments: { campaignId: id, verbose: true } }),
    )!;
    expect(top).toMatchObject({
      code: "invalid_argument",
      fields: [{ pointer: "/verbose", detail: expect.stringContaining("are: campaignId.") }],
    });
    // A mapping (any column name) still takes any key.
    const imported = await client.callTool({
      name: "contacts_import",
      arguments: { csv: "First Name,Email,Shoe\nAda,ada@a.example,42\n", mapping: { Shoe: "custom" } },
    });
    expect(imported.isError).toBeFalsy();
  });

  it("a schema error names each field in _meta, as /problems.md says", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(prisma, o.workspaceId);
    const res = await client.callTool({
      name: "campaigns_create_draft",
      arguments: { name: "", format: "poster", holdoutShare: 2 },
    });
    const error = toolErrorOf(res)!;
    expect(error.code).toBe("invalid_argument");
    expect(error.fields?.map((f) => f.pointer).sort()).toEqual(["/format", "/holdoutShare", "/name"]);
    expect(await prisma.campaign.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
  });

  it("annotations say which tools can print, mail and spend, and reads need only workspace:read", () => {
    const post = MCP_TOOLS.find((t) => t.name === "entry_events_post")!;
    expect(post.mails).toBe(true);
    expect(MCP_TOOLS.filter((t) => t.kind === "read" && t.scope !== "workspace:read").map((t) => t.name)).toEqual([]);
  });

  it("every input property of every tool is described", () => {
    const undescribed = toolCatalogue("https://dm.example").tools.flatMap((t) =>
      Object.entries((t.inputSchema.properties ?? {}) as Record<string, { description?: string; $ref?: string }>)
        .filter(([, p]) => !p.description && !p.$ref)
        .map(([key]) => `${t.name}.${key}`),
    );
    expect(undescribed).toEqual([]);
  });

  it("prompts name only scopes that exist: API keys' for API keys, agents' for agents", () => {
    const named = new Set([...API_KEY_SCOPES, ...MCP_SCOPES]);
    for (const prompt of MCP_PROMPTS) {
      const text = prompt.text({});
      for (const [, scope] of text.matchAll(/with the ([\w:]+) scope/g)) expect(named, prompt.name).toContain(scope);
    }
    const launch = MCP_PROMPTS.find((p) => p.name === "launch_rest_entry_campaign")!.text({});
    expect(launch).toContain("API key with the post_entry_events scope");
  });
});

describe("campaign results and conflicts", () => {
  it("every campaign result names its design", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(prisma, o.workspaceId);
    const design = toolResult<{ id: string }>(
      await client.callTool({
        name: "designs_create",
        arguments: { name: "Bold", format: "postcard", layout: "bold" },
      }),
    );
    const created = toolResult<{ id: string; designId: string | null }>(
      await client.callTool({
        name: "campaigns_create_draft",
        arguments: { name: "With a design", format: "postcard", designId: design.id },
      }),
    );
    expect(created.designId).toBe(design.id);
    const got = toolResult<{ designId: string | null }>(
      await client.callTool({ name: "campaigns_get", arguments: { campaignId: created.id } }),
    );
    expect(got.designId).toBe(design.id);
    const listed = toolResult<{ campaigns: { id: string; designId: string | null }[] }>(
      await client.callTool({ name: "campaigns_list", arguments: {} }),
    );
    expect(listed.campaigns).toEqual([expect.objectContaining({ id: created.id, designId: design.id })]);
  });

  it("a duplicate audience name is refused with a next step about the name, not about keys", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(prisma, o.workspaceId);
    toolResult(await client.callTool({ name: "audiences_create", arguments: { name: "Buyers" } }));
    const error = toolErrorOf(await client.callTool({ name: "audiences_create", arguments: { name: "buyers" } }))!;
    expect(error.code).toBe("conflict");
    expect(error.message).toContain("There is already an audience named “buyers”");
    expect(error.nextStep).not.toMatch(/key/i);
    expect(error.nextStep).toContain("choose another name");
    expect(await prisma.audience.count({ where: { workspaceId: o.workspaceId } })).toBe(1);
  });
});
