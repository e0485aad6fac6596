import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import type { TMcpScope } from "@/server/oauth/scopes";
import { testDatabase } from "@/test/database";
import { createAudience, createOwnerWorkspace } from "@/test/factories";
import { buildMcpServer } from "./server";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

async function agentFor(workspaceId: string, scopes: TMcpScope[] = ["workspace:read", "campaigns:write", "entry_events:write"], urlElicitation = false) {
  const server = buildMcpServer({ db: prisma, base: "https://dm.example", workspaceId, grantId: "grt_test", clientName: "Test agent", scopes, actor: { kind: "agent", id: "grt_test", label: "Test agent (agent)" }, urlElicitation });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "test", version: "1" });
  await client.connect(b);
  return client;
}

describe("the MCP server", () => {
  it("lists every tool with schemas and annotations, and the policy and auth documents as resources", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(o.workspaceId);
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThanOrEqual(17);
    for (const t of tools) {
      expect(t.name).toMatch(/^[a-z]+(_[a-z]+)+$/);
      expect(t.inputSchema.type).toBe("object");
      expect(t.outputSchema?.properties).toHaveProperty("awaitingConfirmation");
      expect(typeof t.annotations?.readOnlyHint).toBe("boolean");
    }
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["https://dm.example/agents/policy.md", "https://dm.example/auth.md"]);
    const policy = await client.readResource({ uri: "https://dm.example/agents/policy.md" });
    expect(policy.contents[0]).toMatchObject({ mimeType: "text/markdown", text: expect.stringContaining("# Agent policy") });
  });

  it("a draft edit says what changed; bad input is refused with the reason and writes nothing", async () => {
    const o = await createOwnerWorkspace(prisma);
    const { audience } = await createAudience(prisma, o.workspaceId, { accounts: 2, perAccount: 1 });
    const client = await agentFor(o.workspaceId);
    const created = await client.callTool({ name: "campaigns_create_draft", arguments: { name: "From an agent", format: "letter", audienceId: audience.id } });
    const id = (created.structuredContent as { result: { id: string } }).result.id;
    expect(created.structuredContent).toMatchObject({ requested: "Create the draft campaign “From an agent”.", changed: [expect.stringContaining(id)], awaitingConfirmation: [] });
    const bad = await client.callTool({ name: "campaigns_update_draft", arguments: { campaignId: id, changes: { holdoutShare: 0.9 } } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain("0.5");
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id } })).holdoutShare).toBe(0.2);
    const merge = await client.callTool({ name: "campaigns_update_draft", arguments: { campaignId: id, changes: { headline: "Hi {{nickname}}" } } });
    expect(merge.isError).toBe(true);
    expect(JSON.stringify(merge.content)).toContain("unknown merge fields");
  });

  it("another workspace's objects give the same error as missing ones; a tool outside the granted scopes is refused", async () => {
    const mine = await createOwnerWorkspace(prisma);
    const theirs = await createOwnerWorkspace(prisma);
    const foreign = await prisma.campaign.create({ data: { workspaceId: theirs.workspaceId, name: "Theirs", format: "postcard" } });
    const client = await agentFor(mine.workspaceId, ["workspace:read"]);
    const a = await client.callTool({ name: "campaigns_get", arguments: { campaignId: foreign.id } });
    const b = await client.callTool({ name: "campaigns_get", arguments: { campaignId: "cmp_missing" } });
    expect(a).toEqual(b);
    expect(a.isError).toBe(true);
    const refused = await client.callTool({ name: "campaigns_create_draft", arguments: { name: "x", format: "postcard" } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain("campaigns:write");
    expect(await prisma.campaign.count({ where: { workspaceId: mine.workspaceId } })).toBe(0);
  });

  it("a request from a client that can open URLs is answered with URL elicitation to the card's page; others get the card as a result", async () => {
    const o = await createOwnerWorkspace(prisma);
    const { audience } = await createAudience(prisma, o.workspaceId, { accounts: 2, perAccount: 1 });
    const campaign = await prisma.campaign.create({
      data: { workspaceId: o.workspaceId, name: "Ready", format: "postcard", audienceId: audience.id, destinationUrl: "https://a.example/x", headline: "Hi", bodyTemplate: "Hello" },
    });
    const plain = await agentFor(o.workspaceId);
    const result = await plain.callTool({ name: "campaigns_request_go_live", arguments: { campaignId: campaign.id } });
    const card = (result.structuredContent as { result: { cardId: string; url: string } }).result;
    expect(card.url).toBe(`https://dm.example/w/${o.workspaceId}/confirmations#card-${card.cardId}`);
    const eliciting = await agentFor(o.workspaceId, undefined, true);
    await expect(eliciting.callTool({ name: "campaigns_request_go_live", arguments: { campaignId: campaign.id } })).rejects.toMatchObject({
      code: -32042,
      elicitations: [{ mode: "url", elicitationId: card.cardId, url: card.url }],
    });
    expect(await prisma.confirmationCard.count({ where: { workspaceId: o.workspaceId } })).toBe(1);
  });
});
