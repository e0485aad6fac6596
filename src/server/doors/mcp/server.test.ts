import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { createAudience, createOwnerWorkspace } from "@/test/factories";
import { agentFor, toolErrorOf } from "@/test/mcp";
import { MCP_TOOLS } from "./catalog";
import { MCP_PROMPTS } from "./prompts";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const errorOf = toolErrorOf;

describe("the MCP server", () => {
  it("lists the tools the token's scopes allow, each naming its scope; resources, prompts and capabilities agree with the server card", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(prisma, o.workspaceId);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(MCP_TOOLS.map((t) => t.name).sort());
    for (const t of tools) {
      const def = MCP_TOOLS.find((d) => d.name === t.name)!;
      expect(t.name).toMatch(/^[a-z]+(_[a-z]+)+$/);
      expect(t.inputSchema.type).toBe("object");
      // Result schemas are in /agents/tools.json, beside the envelope defined once (catalogue.test.ts).
      expect(t.outputSchema).toBeUndefined();
      expect(t.annotations?.readOnlyHint ?? false).toBe(def.kind === "read");
      expect(t.description).toContain(`Scope: ${def.scope}.`);
      expect(t._meta).toBeUndefined();
    }
    expect(client.getServerCapabilities()).toMatchObject({
      tools: { listChanged: false },
      resources: { listChanged: false, subscribe: false },
      prompts: { listChanged: false },
    });

    const readOnly = await agentFor(prisma, o.workspaceId, ["workspace:read"]);
    const visible = (await readOnly.listTools()).tools.map((t) => t.name);
    expect(visible).toEqual(MCP_TOOLS.filter((t) => t.scope === "workspace:read").map((t) => t.name));
    expect(visible).not.toContain("campaigns_create_draft");
    expect(visible).not.toContain("entry_events_post");

    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      "https://dm.example/agents/policy.md",
      "https://dm.example/auth.md",
      "https://dm.example/docs/lifecycle.md",
      "https://dm.example/docs/mailability.md",
      "https://dm.example/problems.md",
    ]);
    const policy = await client.readResource({ uri: "https://dm.example/agents/policy.md" });
    expect(policy.contents[0]).toMatchObject({
      mimeType: "text/markdown",
      text: expect.stringContaining("# Agent policy"),
    });
    const lifecycle = await client.readResource({ uri: "https://dm.example/docs/lifecycle.md" });
    expect(lifecycle.contents[0]).toMatchObject({ text: expect.stringContaining("`mailing_disabled`") });
    const errors = await client.readResource({ uri: "https://dm.example/problems.md" });
    expect(errors.contents[0]).toMatchObject({ text: expect.stringContaining("`plan_does_not_mail`") });
  }, 120_000);

  it("offers prompts for the common jobs, each naming its tools in order", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(prisma, o.workspaceId);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual([
      "audit_crm_for_mail",
      "plan_holdout_test",
      "draft_campaign_for_audience",
      "launch_rest_entry_campaign",
      "report_campaign_lift",
    ]);
    const plan = await client.getPrompt({
      name: "plan_holdout_test",
      arguments: { baselineRate: "0.07", relativeLift: "0.2" },
    });
    const text = (plan.messages[0].content as { text: string }).text;
    expect(text).toContain("holdouts_calculate_size with baselineRate 0.07 and relativeLift 0.2");
    for (const prompt of MCP_PROMPTS) {
      const body = prompt.text({});
      const positions = prompt.tools.map((t) => body.indexOf(t));
      expect(
        positions.every((p) => p >= 0),
        `${prompt.name} names ${prompt.tools.join(", ")}`,
      ).toBe(true);
    }
  });

  it("a draft edit says what changed; bad input is refused as invalid_argument with the reason and writes nothing", async () => {
    const o = await createOwnerWorkspace(prisma);
    const { audience } = await createAudience(prisma, o.workspaceId, { accounts: 2, perAccount: 1 });
    const client = await agentFor(prisma, o.workspaceId);
    const created = await client.callTool({
      name: "campaigns_create_draft",
      arguments: { name: "From an agent", format: "letter", audienceId: audience.id },
    });
    const id = (created.structuredContent as { result: { id: string } }).result.id;
    expect(created.structuredContent).toMatchObject({
      requested: "Create the draft campaign “From an agent”.",
      changed: [expect.stringContaining(id)],
      awaitingConfirmation: [],
    });
    const bad = await client.callTool({
      name: "campaigns_update_draft",
      arguments: { campaignId: id, changes: { holdoutShare: 0.9 } },
    });
    expect(bad.isError).toBe(true);
    expect(errorOf(bad)).toMatchObject({ code: "invalid_argument", message: expect.stringContaining("0.5") });
    expect(JSON.stringify(bad.content)).toMatch(/^\[\{"type":"text","text":"Error invalid_argument: /);
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id } })).holdoutShare).toBe(0.2);
    const past = await client.callTool({
      name: "campaigns_update_draft",
      arguments: { campaignId: id, changes: { endsAt: "2020-01-01T00:00:00Z" } },
    });
    expect(errorOf(past)).toMatchObject({
      code: "invalid_argument",
      message: expect.stringContaining("The end must be in the future."),
    });
    const merge = await client.callTool({
      name: "campaigns_update_draft",
      arguments: { campaignId: id, changes: { headline: "Hi {{nickname}}" } },
    });
    expect(errorOf(merge)).toMatchObject({
      code: "invalid_argument",
      message: expect.stringContaining("unknown merge fields"),
    });
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id } })).headline).toBe("");
  });

  it("another workspace's objects give the same not_found as missing ones; a tool outside the granted scopes is not there", async () => {
    const mine = await createOwnerWorkspace(prisma);
    const theirs = await createOwnerWorkspace(prisma);
    const foreign = await prisma.campaign.create({
      data: { workspaceId: theirs.workspaceId, name: "Theirs", format: "postcard" },
    });
    const client = await agentFor(prisma, mine.workspaceId, ["workspace:read"]);
    const a = await client.callTool({ name: "campaigns_get", arguments: { campaignId: foreign.id } });
    const b = await client.callTool({ name: "campaigns_get", arguments: { campaignId: "cmp_missing" } });
    expect(a).toEqual(b);
    expect(errorOf(a)).toEqual({
      code: "not_found",
      message: "No such campaign.",
      nextStep: "Find the campaign's id with campaigns_list.",
    });
    const refused = await client.callTool({
      name: "campaigns_create_draft",
      arguments: { name: "x", format: "postcard" },
    });
    expect(errorOf(refused)).toEqual({
      code: "insufficient_scope",
      message: "This agent was not granted the campaigns:write scope that campaigns_create_draft needs.",
      nextStep: "Ask the owner to reconnect this agent with the campaigns:write scope.",
    });
    const unknown = await client.callTool({ name: "campaigns_launch", arguments: {} });
    expect(errorOf(unknown)).toMatchObject({
      code: "unknown_tool",
      nextStep: "Call tools/list and use one of the tools listed.",
    });
    expect(await prisma.campaign.count({ where: { workspaceId: mine.workspaceId } })).toBe(0);
    const cursor = await client.callTool({ name: "campaigns_list", arguments: { cursor: foreign.id } });
    expect(errorOf(cursor)).toMatchObject({
      code: "not_found",
      nextStep: "Call again without a cursor to start from the first page.",
    });
  });

  it("a draft has no results yet; an unexpected failure says nothing about itself", async () => {
    const o = await createOwnerWorkspace(prisma);
    const draft = await prisma.campaign.create({
      data: { workspaceId: o.workspaceId, name: "Draft", format: "postcard" },
    });
    const client = await agentFor(prisma, o.workspaceId);
    const results = await client.callTool({ name: "results_get", arguments: { campaignId: draft.id } });
    expect(errorOf(results)).toMatchObject({
      code: "invalid_state",
      message: expect.stringContaining("no results yet"),
    });
    // A database failure (here: a NUL character PostgreSQL refuses) never reaches the agent as text.
    const broken = await client.callTool({ name: "campaigns_get", arguments: { campaignId: "cmp_\u0000x" } });
    expect(broken.isError).toBe(true);
    expect(JSON.stringify(broken)).not.toMatch(/prisma|invocation|22021|0x00/i);
  });

  it("a request from a client that can open URLs is answered with URL elicitation to the card's page; others get the card as a result", async () => {
    const o = await createOwnerWorkspace(prisma);
    const { audience } = await createAudience(prisma, o.workspaceId, { accounts: 2, perAccount: 1 });
    const campaign = await prisma.campaign.create({
      data: {
        workspaceId: o.workspaceId,
        name: "Ready",
        format: "postcard",
        acceptsApiEvents: true,
        audienceId: audience.id,
        destinationUrl: "https://a.example/x",
        headline: "Hi",
        bodyTemplate: "Hello",
      },
    });
    const plain = await agentFor(prisma, o.workspaceId);
    const result = await plain.callTool({ name: "campaigns_request_go_live", arguments: { campaignId: campaign.id } });
    const card = (result.structuredContent as { result: { cardId: string; url: string; campaignId: string } }).result;
    expect(card.url).toBe(`https://dm.example/w/${o.workspaceId}/confirmations#card-${card.cardId}`);
    expect(card.campaignId).toBe(campaign.id);
    const eliciting = await agentFor(prisma, o.workspaceId, undefined, true);
    await expect(
      eliciting.callTool({ name: "campaigns_request_go_live", arguments: { campaignId: campaign.id } }),
    ).rejects.toMatchObject({
      code: -32042,
      elicitations: [{ mode: "url", elicitationId: card.cardId, url: card.url }],
    });
    expect(await prisma.confirmationCard.count({ where: { workspaceId: o.workspaceId } })).toBe(1);
  });

  it("tool errors give the agent a sentence and a stable code, never the database's text", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(prisma, o.workspaceId);
    // A NUL in an id reached PostgreSQL and came back as "Invalid prisma.campaign.findFirst() invocation ... 22021".
    const nul = await client.callTool({ name: "campaigns_get", arguments: { campaignId: "cmp_\u0000" } });
    expect(nul.isError).toBe(true);
    expect(JSON.stringify(nul)).not.toMatch(/prisma|invocation|22021|UTF8/i);
    expect(errorOf(nul)).toMatchObject({ code: "invalid_argument", message: expect.stringContaining("NUL") });
    // Nor in a member name, nor a lone surrogate.
    expect(
      errorOf(
        await client.callTool({ name: "campaigns_create_draft", arguments: { name: "\ud800", format: "postcard" } }),
      )?.code,
    ).toBe("invalid_argument");
    // An out-of-range date never reaches the database either.
    const year0 = await client.callTool({
      name: "campaigns_create_draft",
      arguments: { name: "Old", format: "postcard", endsAt: "9999-12-31T23:59:59-14:00" },
    });
    expect(errorOf(year0)?.code).toBe("invalid_argument");
    expect(JSON.stringify(year0)).not.toMatch(/prisma|invocation/i);
    expect(await prisma.campaign.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
  });

  it("a database failure a tool call causes is its code and a sentence, never its text", async () => {
    const o = await createOwnerWorkspace(prisma);
    const client = await agentFor(prisma, o.workspaceId);
    // A campaign whose id PostgreSQL refuses, reached through a path that does not check ids first: the safety net answers.
    const spy = prisma.campaign.findFirst;
    const failing = Object.assign(
      new Error(
        "Invalid `prisma.campaign.findFirst()` invocation: Database error. Code: `40P01`. Message: `deadlock detected`",
      ),
      { code: "40P01" },
    );
    (prisma.campaign as { findFirst: unknown }).findFirst = () => Promise.reject(failing);
    try {
      const res = await client.callTool({ name: "campaigns_get", arguments: { campaignId: "cmp_x" } });
      expect(errorOf(res)).toMatchObject({ code: "conflict", message: expect.stringContaining("Try again") });
      expect(JSON.stringify(res)).not.toMatch(/prisma|invocation|deadlock/i);
    } finally {
      (prisma.campaign as { findFirst: unknown }).findFirst = spy;
    }
  });
});
