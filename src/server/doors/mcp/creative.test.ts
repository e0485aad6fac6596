import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { toolErrorOf } from "@/test/mcp";
import { createAudience, createOwnerWorkspace } from "@/test/factories";
import { dataUrl, makePng } from "@/test/images";
import { drainJobs } from "@/test/jobs";
import { buildMcpServer } from "./server";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

async function agentFor(workspaceId: string) {
  const server = buildMcpServer({
    db: prisma,
    base: "https://dm.example",
    workspaceId,
    grantId: "grt_test",
    clientName: "Test agent",
    scopes: ["workspace:read", "campaigns:write"],
    role: "owner",
    actor: { kind: "agent", id: "grt_test", label: "Test agent (agent)" },
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "test", version: "1" });
  await client.connect(b);
  // Listing the tools makes the client check every result against the tool's output schema.
  await client.listTools();
  return client;
}

type Content = { type: string; data?: string; mimeType?: string; text?: string }[];
const result = <T>(r: Awaited<ReturnType<Client["callTool"]>>) => (r.structuredContent as { result: T }).result;

describe("the brand kit, designs and drafts for agents", () => {
  it("an agent builds a brand kit, designs a postcard, previews it for a contact, generates drafts and rewrites one", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "audit" });
    const { audience, contacts } = await createAudience(prisma, o.workspaceId, { accounts: 2, perAccount: 2 });
    const agent = await agentFor(o.workspaceId);

    const kit = await agent.callTool({
      name: "brand_kit_update",
      arguments: {
        companyName: "Brightline",
        logo: dataUrl("image/png", makePng(400, 120)),
        colors: { primary: "#0b7285", accent: "#f08c00", text: "#212529" },
        fonts: { heading: "noto-serif", body: "noto-sans", handwriting: "dancing-script" },
        returnAddress: { addressLine1: "1 Main St", city: "Boston", region: "MA", postalCode: "02116", country: "US" },
        signOff: "Sam",
      },
    });
    expect(kit.isError).toBeFalsy();
    expect(result<{ logo: unknown; fonts: unknown }>(kit)).toMatchObject({
      logo: { type: "image/png", width: 400, height: 120 },
      fonts: { heading: "noto-serif", handwriting: "dancing-script" },
    });
    expect(result(await agent.callTool({ name: "brand_kit_get", arguments: {} }))).toMatchObject({
      companyName: "Brightline",
      signOff: "Sam",
    });

    const created = await agent.callTool({
      name: "designs_create",
      arguments: {
        name: "Spring postcard",
        format: "postcard",
        size: "6x9",
        layout: "split",
        blocks: { headline: "{{firstName|Hello}}, a plan for {{company}}" },
      },
    });
    const design = result<{ id: string }>(created);
    expect(design.id).toMatch(/^dsn_/);
    expect(created.structuredContent).toMatchObject({ changed: [`Created design ${design.id} (“Spring postcard”).`] });
    expect(
      result<{ designs: { id: string }[] }>(await agent.callTool({ name: "designs_list", arguments: {} })).designs.map(
        (d) => d.id,
      ),
    ).toEqual([design.id]);

    const preview = await agent.callTool({
      name: "designs_preview",
      arguments: { designId: design.id, contactId: contacts[0].id },
    });
    const images = (preview.content as Content).filter((c) => c.type === "image");
    expect(images.map((i) => i.mimeType)).toEqual(["image/png", "image/png"]);
    expect(Buffer.from(images[0].data!, "base64").subarray(1, 4).toString()).toBe("PNG");
    expect(result(preview)).toMatchObject({
      pages: ["Front", "Back"],
      specimen: true,
      recipient: { contactId: contacts[0].id },
      proofUrl: expect.stringContaining(`/api/designs/${design.id}/proof?`),
    });

    await agent.callTool({
      name: "campaigns_create_draft",
      arguments: { name: "Spring", format: "postcard", audienceId: audience.id, designId: design.id },
    });
    const campaign = await prisma.campaign.findFirstOrThrow({ where: { workspaceId: o.workspaceId } });
    expect(campaign.designId).toBe(design.id);
    const started = await agent.callTool({ name: "drafts_generate", arguments: { campaignId: campaign.id } });
    const { jobId, status } = result<{ jobId: string; status: string }>(started);
    expect([jobId.startsWith("job_"), status]).toEqual([true, "queued"]);
    await drainJobs(prisma, { workspaceId: o.workspaceId });
    const done = await agent.callTool({ name: "drafts_generate", arguments: { jobId } });
    expect(result(done)).toMatchObject({
      jobId,
      status: "succeeded",
      drafts: 4,
      overflowing: 0,
      missingData: 0,
      unmailable: 0,
      mailability: null,
      job: { progress: { done: 4, total: 4 } },
    });
    // A recipient whose street is gone since: drafts_generate and drafts_list say which draft cannot be mailed, and why.
    await prisma.contact.update({ where: { id: contacts[3].id }, data: { addressLine1: null, addressLine2: null } });
    expect(result(await agent.callTool({ name: "drafts_generate", arguments: { jobId } }))).toMatchObject({
      unmailable: 1,
      mailability:
        "3 of 4 drafts can be mailed; 1 recipient cannot and is skipped when they enter (First11 Tester: no street address).",
    });
    expect(
      result(
        await agent.callTool({ name: "drafts_list", arguments: { campaignId: campaign.id, filter: "unmailable" } }),
      ),
    ).toMatchObject({
      drafts: [
        {
          contactId: contacts[3].id,
          mailable: false,
          unmailableReasons: ["missing_address"],
          unmailableDetail: "no street address",
        },
      ],
      nextCursor: null,
    });

    const list = result<{ drafts: { id: string; contactId: string; specimen: boolean }[]; nextCursor: null }>(
      await agent.callTool({ name: "drafts_list", arguments: { campaignId: campaign.id } }),
    );
    expect(list.drafts).toHaveLength(4);
    expect(list.drafts.every((d) => d.specimen)).toBe(true);
    const one = await agent.callTool({ name: "drafts_get", arguments: { draftId: list.drafts[0].id } });
    expect((one.content as Content).filter((c) => c.type === "image")).toHaveLength(2);
    expect(result(one)).toMatchObject({
      blocks: { headline: expect.stringContaining(", a plan for Account") },
      proofUrl: expect.stringContaining(`/api/drafts/${list.drafts[0].id}/proof?`),
      editable: true,
    });
    const edited = await agent.callTool({
      name: "drafts_update",
      arguments: { draftId: list.drafts[0].id, blocks: { body: "Written just for {{firstName}}." } },
    });
    expect(result(edited)).toMatchObject({
      edited: true,
      blocks: { body: expect.stringMatching(/^Written just for First\d\d\.$/) },
    });
    expect(
      result<{ drafts: unknown[] }>(
        await agent.callTool({ name: "drafts_list", arguments: { campaignId: campaign.id, filter: "edited" } }),
      ).drafts,
    ).toHaveLength(1);
    expect(
      await prisma.auditLogEntry.count({
        where: {
          workspaceId: o.workspaceId,
          actorKind: "agent",
          action: { in: ["brand_kit.updated", "design.created", "drafts.generate_requested", "draft.edited"] },
        },
      }),
    ).toBe(4);
  }, 120_000);

  it("errors name what to do next and write nothing", async () => {
    const o = await createOwnerWorkspace(prisma);
    const agent = await agentFor(o.workspaceId);
    const text = (r: Awaited<ReturnType<Client["callTool"]>>) => toolErrorOf(r)?.message;
    const missing = await agent.callTool({ name: "designs_preview", arguments: { designId: "dsn_nope" } });
    expect([missing.isError, toolErrorOf(missing)?.code, text(missing)]).toEqual([
      true,
      "not_found",
      "No such design in this workspace; designs_list shows the designs.",
    ]);
    const typo = await agent.callTool({
      name: "designs_create",
      arguments: { name: "X", format: "postcard", layout: "bold", blocks: { headline: "Hi {{first_name}}" } },
    });
    expect(typo.isError).toBe(true);
    expect(toolErrorOf(typo)).toMatchObject({ code: "invalid_argument" });
    expect(JSON.stringify(typo.content)).toContain("unknown merge fields: {{first_name}}. Known fields: firstName");
    const noDraft = await agent.callTool({ name: "drafts_get", arguments: { draftId: "drf_nope" } });
    expect(text(noDraft)).toBe("No such draft in this workspace; drafts_list shows a campaign's drafts.");
    const noCampaign = await agent.callTool({ name: "drafts_list", arguments: { campaignId: "cmp_nope" } });
    expect(text(noCampaign)).toBe("No such campaign in this workspace; campaigns_list shows the campaigns.");
    expect(await prisma.design.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
  }, 120_000);
});
