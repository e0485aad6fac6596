import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { claimGift } from "@/server/programme/responses/gift-claims";
import { sendReply } from "@/server/programme/responses/replies";
import { openResponseLink } from "@/server/programme/responses/service";
import { testDatabase } from "@/test/database";
import { agentFor, toolErrorOf } from "@/test/mcp";
import { createOwnerWorkspace } from "@/test/factories";
import { giftClaimCampaign, landingPageCampaign } from "@/test/response-fixtures";
import { MCP_TOOLS } from "./catalog";
import { envelopeOf } from "./tool";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

/** Calls a tool and checks its result against the tool's own output schema. */
async function call<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<T> {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
  envelopeOf(MCP_TOOLS.find((t) => t.name === name)!.result).parse(r.structuredContent);
  return (r.structuredContent as { result: T }).result;
}

describe("responses_list", () => {
  it("pages through what recipients did, newest first, filtered by kind, with each reply's text", async () => {
    const f = await landingPageCampaign(prisma);
    // Mailed an hour ago, so what follows is inside the results' window and in the past.
    const t0 = Date.now() - 50 * 60_000;
    await prisma.mailPiece.update({ where: { id: f.piece.id }, data: { mailedAt: new Date(t0 - 10 * 60_000) } });
    await openResponseLink(prisma, { code: f.code, via: "qr", userAgent: "iPhone", now: new Date(t0) });
    await sendReply(prisma, {
      code: f.code,
      nonce: "a".repeat(16),
      input: { message: "Tuesday works.", replyTo: null },
      userAgent: "iPhone",
      now: new Date(t0 + 1000),
    });
    await sendReply(prisma, {
      code: f.code,
      nonce: "b".repeat(16),
      input: { message: "Also Thursday.", replyTo: "me@home.example" },
      userAgent: "iPhone",
      now: new Date(t0 + 2000),
    });
    const agent = await agentFor(prisma, f.workspaceId, ["workspace:read"]);
    const first = await call<{
      responses: { kind: string; reply: unknown; recipient: string }[];
      nextCursor: string | null;
    }>(agent, "responses_list", { campaignId: f.campaign.id, take: 2 });
    expect(first.responses.map((r) => r.kind)).toEqual(["reply", "reply"]);
    expect(first.responses[0]).toMatchObject({
      reply: { text: "Also Thursday.", replyTo: "me@home.example" },
      recipient: `${f.contacts[0].firstName} Tester`,
    });
    const second = await call<{ responses: { kind: string }[]; nextCursor: string | null }>(agent, "responses_list", {
      campaignId: f.campaign.id,
      take: 2,
      cursor: first.nextCursor,
    });
    expect(second.responses.map((r) => r.kind).sort()).toEqual(["page_view", "scan"]);
    expect(second.nextCursor).toBeNull();
    const replies = await call<{ responses: unknown[] }>(agent, "responses_list", {
      campaignId: f.campaign.id,
      kind: "reply",
    });
    expect(replies.responses).toHaveLength(2);
    // Replies are an outcome the service observed (treated accounts only), the other actions response rates.
    const results = await call<{
      kinds: {
        kind: string;
        treated: { converted: number };
        holdoutObservable: boolean;
        alwaysValid: { verdict: string };
      }[];
      responses: { pageActions: { kind: string; count: number }[] };
    }>(agent, "results_get", { campaignId: f.campaign.id });
    expect(results.kinds.find((k) => k.kind === "reply")).toMatchObject({
      treated: { converted: 1 },
      holdoutObservable: false,
      alwaysValid: { verdict: "not_measurable" },
    });
    expect(results.responses.pageActions.find((a) => a.kind === "page_view")).toMatchObject({ count: 1 });
    expect(results.responses.pageActions.some((a) => a.kind === ("reply" as string))).toBe(false);
  });

  it("answers coded errors: unknown campaign or cursor (not_found), a kind outside the enum (invalid_argument)", async () => {
    const f = await landingPageCampaign(prisma);
    const stranger = await createOwnerWorkspace(prisma);
    const agent = await agentFor(prisma, stranger.workspaceId, ["workspace:read"]);
    expect(
      toolErrorOf(await agent.callTool({ name: "responses_list", arguments: { campaignId: f.campaign.id } })),
    ).toMatchObject({ code: "not_found" });
    const own = await agentFor(prisma, f.workspaceId, ["workspace:read"]);
    expect(
      toolErrorOf(
        await own.callTool({ name: "responses_list", arguments: { campaignId: f.campaign.id, cursor: "rsp_nope" } }),
      ),
    ).toMatchObject({ code: "not_found" });
    const bad = await own.callTool({
      name: "responses_list",
      arguments: { campaignId: f.campaign.id, kind: "conversion" },
    });
    expect(bad.isError).toBe(true);
    expect(toolErrorOf(bad)).toMatchObject({ code: "invalid_argument" });
  });
});

describe("gift claims for agents", () => {
  it("gift_claims_list gives each waiting recipient's claim page; a claim shows in responses_list and the results", async () => {
    const f = await giftClaimCampaign(prisma);
    const agent = await agentFor(prisma, f.workspaceId, ["workspace:read"]);
    const open = await call<{ claims: { claimUrl: string; recipient: string }[] }>(agent, "gift_claims_list", {
      campaignId: f.campaign.id,
    });
    expect(open.claims).toHaveLength(1);
    expect(open.claims[0].claimUrl).toMatch(new RegExp(`/r/${f.code}$`));
    // entry_events_get (scope entry_events:write) names the claim the event waits for.
    const writer = await agentFor(prisma, f.workspaceId);
    expect(await call(writer, "entry_events_get", { campaignId: f.campaign.id, eventId: f.eventId })).toMatchObject({
      status: "waiting",
      waiting: { reason: "gift_claim", claimUrl: open.claims[0].claimUrl },
    });

    await claimGift(prisma, {
      code: f.code,
      giftItem: "tea-tin",
      address: {
        addressLine1: "12 Elm Street",
        addressLine2: null,
        city: "Cambridge",
        region: "MA",
        postalCode: "02139",
        country: "US",
      },
      userAgent: "iPhone",
    });
    const claimed = await call<{ responses: { kind: string; gift: unknown; address: unknown }[] }>(
      agent,
      "responses_list",
      { campaignId: f.campaign.id },
    );
    expect(claimed.responses.map((r) => r.kind).sort()).toEqual(["address_change", "gift_claim"]);
    expect(claimed.responses.find((r) => r.kind === "gift_claim")!.gift).toEqual({
      item: "tea-tin",
      name: "Loose-leaf tea tin",
    });
    expect(claimed.responses.find((r) => r.kind === "address_change")!.address).toMatchObject({
      city: "Cambridge",
      version: 2,
    });
    expect(
      (await call<{ claims: unknown[] }>(agent, "gift_claims_list", { campaignId: f.campaign.id })).claims,
    ).toHaveLength(0);

    const results = await call<{
      campaign: { responseMode: string };
      responses: {
        reachedAccounts: number;
        pageActions: { kind: string; count: number; accounts: number; rate: number }[];
      };
    }>(agent, "results_get", { campaignId: f.campaign.id });
    expect(results.campaign.responseMode).toBe("gift_claim");
    expect(results.responses.reachedAccounts).toBe(1);
    expect(results.responses.pageActions.find((a) => a.kind === "gift_claim")).toEqual({
      kind: "gift_claim",
      count: 1,
      accounts: 1,
      rate: 1,
    });
    expect(results.responses.pageActions.find((a) => a.kind === "gift_decline")).toMatchObject({ count: 0, rate: 0 });
  });

  it("campaigns_create_draft and campaigns_update_draft take the response fields, and refuse a claim page for a postcard", async () => {
    const owner = await createOwnerWorkspace(prisma);
    const agent = await agentFor(prisma, owner.workspaceId);
    const draft = await call<{ id: string; responseMode: string; pageCallToAction: string; meetingUrl: string | null }>(
      agent,
      "campaigns_create_draft",
      {
        name: "Pilot follow-up",
        format: "postcard",
        responseMode: "landing_page",
        pageCallToAction: "meeting",
        meetingUrl: "https://cal.example/acme/intro",
      },
    );
    expect(draft).toMatchObject({
      responseMode: "landing_page",
      pageCallToAction: "meeting",
      meetingUrl: "https://cal.example/acme/intro",
    });
    const refused = await agent.callTool({
      name: "campaigns_update_draft",
      arguments: { campaignId: draft.id, changes: { responseMode: "gift_claim" } },
    });
    expect(toolErrorOf(refused)).toMatchObject({ code: "invalid_argument" });
    expect(JSON.stringify(refused.content)).toContain("gift campaign");
    const insecure = await agent.callTool({
      name: "campaigns_update_draft",
      arguments: { campaignId: draft.id, changes: { meetingUrl: "http://cal.example/x" } },
    });
    expect(toolErrorOf(insecure)).toMatchObject({ code: "invalid_argument" });
    const gift = await call<{ giftOptions: string[]; claimWindowDays: number }>(agent, "campaigns_create_draft", {
      name: "Gifts",
      format: "gift",
      responseMode: "gift_claim",
      giftOptions: ["tea-tin", "succulent"],
      claimWindowDays: 21,
    });
    expect(gift).toMatchObject({ giftOptions: ["tea-tin", "succulent"], claimWindowDays: 21 });
  });
});
