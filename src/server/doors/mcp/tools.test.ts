import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { connectCrm } from "@/server/programme/crm/service";
import { generateCrm } from "@/test/crm-fakes/data";
import { startHubSpotFake } from "@/test/crm-fakes/hubspot-fake";
import { createAudience } from "@/test/factories";
import { drainJobs } from "@/test/jobs";
import { drain, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";
import { agentFor, toolErrorOf, toolResult } from "@/test/mcp";
import { createEndpoint } from "@/server/programme/webhooks/service";
import { MCP_TOOLS } from "./catalog";
import { MCP_PROMPTS } from "./prompts";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

/**
 * Every tool, called on a workspace with real records (a live campaign with mailed and
 * review-gated pieces, a draft, cards), answers without error: the SDK checks each result against
 * the tool's own output schema on the server and again in the client.
 */
describe("every tool on real data", () => {
  it("returns results that validate against its output schema", async () => {
    const f = await liveCampaign(prisma, { accounts: 4, perAccount: 2, holdoutAccounts: 1 });
    const clock = testClock();
    for (const c of f.contacts.slice(0, 4)) await postEvent(prisma, f, c.id);
    await drain(prisma, clock, f.workspaceId);
    const gated = await prisma.campaign.create({
      data: {
        ...(await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } })),
        id: undefined,
        name: "Gated",
        reviewGate: "each_piece",
        createdAt: undefined,
        updatedAt: undefined,
      },
    });
    await prisma.holdoutAssignment.createMany({
      data: f.accountIds.map((accountId) => ({
        campaignId: gated.id,
        accountId,
        workspaceId: f.workspaceId,
        arm: "treatment" as const,
      })),
    });
    await postEvent(prisma, { ...f, campaign: gated }, f.contacts[5].id);
    clock.advance(60_000);
    await drain(prisma, clock, f.workspaceId);
    const { audience } = await createAudience(prisma, f.workspaceId, { accounts: 2, perAccount: 1 });

    const client = await agentFor(prisma, f.workspaceId);
    // The SDK client checks each result against the tool's output schema once it has listed the tools.
    await client.listTools();
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const r = await client.callTool({ name, arguments: args });
      expect(toolErrorOf(r), `${name} ${JSON.stringify(args)}`).toBeUndefined();
      return toolResult(r);
    };
    const called = new Set<string>();
    // Each result's shape is checked by the SDK against the tool's schema; the test reads only ids from them.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const run = async (name: string, args: Record<string, unknown> = {}): Promise<any> => {
      called.add(name);
      return call(name, args);
    };

    await run("workspace_get_summary");
    await run("audiences_list");
    await run("audiences_get", { audienceId: f.audience.id });
    const contacts = (await run("contacts_list", { audienceId: f.audience.id })) as { contacts: { id: string }[] };
    await run("contacts_get", { contactId: contacts.contacts[0].id });
    const imported = (await run("contacts_import", {
      csv: "First Name,Last Name,Email,Company,Street,City,State,Zip,Country\nAda,Okafor,ada@brightline.example,Brightline,500 Boylston St,Boston,MA,02116,US\n",
      audienceName: "From a CSV",
    })) as { importId: string; audienceId: string };
    await run("imports_get", { importId: imported.importId });
    const accounts = (await run("accounts_list")) as { accounts: { id: string }[] };
    await run("accounts_get", { accountId: accounts.accounts[0].id });
    const made = (await run("audiences_create", { name: "Agent picks", contactIds: [contacts.contacts[0].id] })) as {
      id: string;
    };
    await run("audiences_add_contacts", { audienceId: made.id, contactIds: [contacts.contacts[1].id] });
    await run("audiences_remove_contacts", { audienceId: made.id, contactIds: [contacts.contacts[1].id] });
    await run("suppressions_add", { entries: [{ email: "no-mail@brightline.example", reason: "opt-out" }] });
    await run("suppressions_list");
    await run("campaigns_list", { take: 1 });
    await run("campaigns_get", { campaignId: f.campaign.id });
    const draft = (await run("campaigns_create_draft", {
      name: "Agent draft",
      format: "postcard",
      audienceId: audience.id,
      budgetCents: 5000,
      destinationUrl: "https://acme.example/x",
      headline: "Hi {{firstName}}",
      bodyTemplate: "Hello from {{company}}.",
      entryPolicy: "audience_at_go_live",
    })) as { id: string };
    await run("campaigns_update_draft", {
      campaignId: draft.id,
      changes: {
        holdoutShare: 0.1,
        entryPolicy: "audience_joins",
        sendAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    const goLive = (await run("campaigns_request_go_live", { campaignId: draft.id })) as { cardId: string };
    await run("confirmations_withdraw", { cardId: goLive.cardId });
    await run("campaigns_request_budget_raise", { campaignId: f.campaign.id, budgetCents: 500_000 });
    const events = (await run("entry_events_list", { campaignId: f.campaign.id, take: 2 })) as {
      events: { eventId: string }[];
      nextCursor: string;
    };
    await run("entry_events_list", { campaignId: f.campaign.id, cursor: events.nextCursor });
    await run("entry_events_get", { campaignId: f.campaign.id, eventId: events.events[0].eventId });
    await run("entry_events_post", {
      campaignId: f.campaign.id,
      contactId: f.contacts[6].id,
      idempotencyKey: "agent-1",
    });
    await run("campaigns_send_to", { campaignId: f.campaign.id, contactIds: [f.contacts[6].id] });
    const pieces = (await run("pieces_list", { campaignId: f.campaign.id })) as {
      pieces: { pieceId: string; contactId: string }[];
    };
    await run("pieces_get", { pieceId: pieces.pieces[0].pieceId });
    await run("pieces_list", { contactId: pieces.pieces[0].contactId });
    await run("entry_events_post_batch", {
      campaignId: f.campaign.id,
      events: [{ contactId: f.contacts[7].id, idempotencyKey: "agent-batch-1" }],
    });
    const acct = await prisma.account.findUniqueOrThrow({ where: { id: f.accountIds[0] } });
    await run("outcomes_import", { csv: `account,kind,at\n${acct.domain},signup,2026-10-01\n` });
    const ada = await prisma.contact.findFirstOrThrow({
      where: { workspaceId: f.workspaceId, email: "ada@brightline.example" },
    });
    await run("contacts_update", { contactId: ada.id, fields: { title: "CTO" } });
    await run("contacts_delete", { contactId: ada.id });
    const waiting = (await run("pieces_list", { campaignId: gated.id, status: "pending_review" })) as {
      pieces: { pieceId: string }[];
    };
    await run("pieces_request_approval", { pieceId: waiting.pieces[0].pieceId });
    await run("results_get", { campaignId: f.campaign.id });
    await run("results_get_programme", {});
    await run("responses_list", { campaignId: f.campaign.id });
    await run("gift_claims_list", { campaignId: f.campaign.id });
    await run("gifts_catalogue_list", {});
    await run("holdouts_calculate_size", { baselineRate: 0.07, relativeLift: 0.2 });
    const contractPage = (await run("contracts_list", { take: 1 })) as {
      contracts: { id: string }[];
      nextCursor: string | null;
    };
    if (contractPage.nextCursor) await run("contracts_list", { cursor: contractPage.nextCursor });
    const cards = (await run("confirmations_list", { take: 2 })) as { cards: { cardId: string }[] };
    await run("confirmations_list", { status: "decided" });
    await run("confirmations_get", { cardId: cards.cards[0].cardId });
    await run("campaigns_pause", { campaignId: gated.id });
    await run("campaigns_request_resume", { campaignId: gated.id });
    await run("campaigns_end", { campaignId: gated.id });
    await run("brand_kit_get");
    await run("brand_kit_update", {
      companyName: "Brightline",
      colors: { primary: "#1d3557", accent: "#e63946", text: "#111111" },
    });
    const design = (await run("designs_create", {
      name: "Follow-up",
      format: "postcard",
      size: "6x9",
      layout: "bold",
    })) as { id: string };
    await run("designs_update", { designId: design.id, name: "Follow-up card" });
    await run("designs_list");
    await run("designs_preview", { designId: design.id, contactId: f.contacts[0].id });
    await run("campaigns_update_draft", { campaignId: draft.id, changes: { designId: design.id } });
    const job = (await run("drafts_generate", { campaignId: draft.id })) as { jobId: string };
    await drainJobs(prisma, { workspaceId: f.workspaceId });
    await run("drafts_generate", { jobId: job.jobId });
    const drafts = (await run("drafts_list", { campaignId: draft.id })) as { drafts: { id: string }[] };
    await run("drafts_get", { draftId: drafts.drafts[0].id });
    await run("drafts_update", { draftId: drafts.drafts[0].id, blocks: { headline: "Just for you, {{firstName}}" } });
    // The mailability audit, on an audience with a ZIP code a spreadsheet cut to four digits.
    const zip = await prisma.contact.update({
      where: { id: f.contacts[1].id },
      data: { addressLine1: "500 Boylston St", city: "Boston", region: "MA", postalCode: "2116", country: "US" },
    });
    const audit = (await run("audits_run", { audienceId: f.audience.id })) as { auditId: string; status: string };
    expect(audit.status).toBe("succeeded");
    await run("audits_estimate", { audienceId: f.audience.id });
    expect(
      ((await run("audits_get", { auditId: audit.auditId })) as { fixable: number }).fixable,
    ).toBeGreaterThanOrEqual(1);
    await run("audits_list", { audienceId: f.audience.id });
    const fixable = (await run("audits_problems", { auditId: audit.auditId, status: "fixable" })) as {
      items: { contactId: string }[];
    };
    expect(fixable.items.map((i) => i.contactId)).toContain(zip.id);
    await run("contacts_apply_fix", { contactId: zip.id });
    expect((await prisma.contact.findUniqueOrThrow({ where: { id: zip.id } })).postalCode).toBe("02116");
    // The fix is the agent's own edit in the audit log, not the owner's.
    const edit = await prisma.auditLogEntry.findFirstOrThrow({
      where: { workspaceId: f.workspaceId, targetId: zip.id },
      orderBy: { createdAt: "desc" },
    });
    expect(edit).toMatchObject({ actorKind: "agent", actorLabel: expect.stringContaining("agent") });
    expect(await run("contacts_apply_fixes", { auditId: audit.auditId, reason: "invalid_postal_code" })).toMatchObject({
      fixed: 0,
    });

    // The CRM: the owner connected HubSpot (a local fake) in the browser; the agent reads and syncs.
    const hubspot = await startHubSpotFake(generateCrm("hubspot", { contacts: 30 }), { token: "pat-na1-tools-test" });
    process.env.CRM_TEST_ALLOW_LOCAL_URLS = "1";
    process.env.CRM_TEST_HUBSPOT_BASE_URL = hubspot.url;
    process.env.CRM_ENCRYPTION_KEY ??= Buffer.alloc(32, 5).toString("base64");
    const owner = { kind: "user" as const, id: null, label: "owner@example.test" };
    const { connectionId } = await connectCrm(prisma, {
      workspaceId: f.workspaceId,
      input: { kind: "hubspot", accessToken: "pat-na1-tools-test" },
      actor: owner,
    });
    await drainJobs(prisma, { workspaceId: f.workspaceId });
    const listed = (await run("crm_connections_list")) as {
      connections: { connectionId: string; lastSync: { status: string } }[];
    };
    expect(listed.connections).toMatchObject([{ connectionId, lastSync: { status: "succeeded" } }]);
    expect(JSON.stringify(listed)).not.toContain("pat-na1");
    const sync = (await run("crm_sync_start", { connectionId })) as {
      syncId: string;
      mode: string;
      alreadyRunning: boolean;
    };
    expect(sync).toMatchObject({ mode: "incremental", alreadyRunning: false });
    await drainJobs(prisma, { workspaceId: f.workspaceId });
    expect(await run("crm_sync_get", { syncId: sync.syncId })).toMatchObject({
      status: "succeeded",
      counts: { contacts: { created: 0, errors: 0 } },
    });
    await hubspot.close();

    // Webhooks: the owner added an endpoint in the browser; the agent lists it and its deliveries, never its secret.
    process.env.WEBHOOK_TEST_ALLOW_LOCAL_URLS = "1";
    const hook = await createEndpoint(prisma, {
      workspaceId: f.workspaceId,
      url: "http://127.0.0.1:9/hooks",
      events: ["piece.mailed"],
      actor: owner,
    });
    delete process.env.WEBHOOK_TEST_ALLOW_LOCAL_URLS;
    const hooks = (await run("webhooks_list")) as { endpoints: { endpointId: string }[] };
    expect(hooks.endpoints.map((e) => e.endpointId)).toEqual([hook.endpointId]);
    expect(JSON.stringify(hooks)).not.toContain(hook.secret.slice(6, 20));
    await run("webhooks_list", { endpointId: hook.endpointId });

    await prisma.workspace.update({ where: { id: f.workspaceId }, data: { plan: "audit" } });
    await run("plans_request_change", { plan: "paid" });

    expect([...called].sort()).toEqual(MCP_TOOLS.map((t) => t.name).sort());
  });

  it("every tool a prompt tells the agent to call exists, and its text names them in the order it lists them", () => {
    const names = new Set<string>(MCP_TOOLS.map((t) => t.name));
    for (const prompt of MCP_PROMPTS) {
      expect(
        prompt.tools.filter((t) => !names.has(t)),
        prompt.name,
      ).toEqual([]);
      const text = prompt.text({});
      const mentioned = [...names].filter((n) => text.includes(n)).sort((a, b) => text.indexOf(a) - text.indexOf(b));
      expect(mentioned, prompt.name).toEqual(prompt.tools);
    }
  });

  it("every error case answers its code", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1, plan: "audit" });
    const client = await agentFor(prisma, f.workspaceId);
    const code = async (name: string, args: Record<string, unknown>) =>
      toolErrorOf(await client.callTool({ name, arguments: args }))?.code;
    expect(await code("campaigns_get", { campaignId: "cmp_nope" })).toBe("not_found");
    expect(await code("entry_events_list", { campaignId: f.campaign.id, cursor: "evt_nope" })).toBe("not_found");
    expect(await code("contacts_get", { contactId: "ctc_nope" })).toBe("not_found");
    expect(await code("contracts_list", { cursor: "ful_nope" })).toBe("not_found");
    expect(await code("holdouts_calculate_size", { baselineRate: 2, relativeLift: 0.2 })).toBe("invalid_argument");
    expect(await code("campaigns_create_draft", { name: "x", format: "flyer" })).toBe("invalid_argument");
    expect(
      await code("entry_events_post", {
        campaignId: f.campaign.id,
        contactId: f.contacts[0].id,
        idempotencyKey: "k1",
        occurredAt: "2020-01-01T00:00:00",
      }),
    ).toBe("invalid_argument");
    await client.callTool({
      name: "entry_events_post",
      arguments: { campaignId: f.campaign.id, contactId: f.contacts[0].id, idempotencyKey: "k2" },
    });
    expect(
      await code("entry_events_post", {
        campaignId: f.campaign.id,
        contactId: f.contacts[0].id,
        idempotencyKey: "k2",
        occurredAt: "2024-01-01T00:00:00Z",
      }),
    ).toBe("conflict");
    expect(await code("campaigns_update_draft", { campaignId: f.campaign.id, changes: { name: "Live" } })).toBe(
      "invalid_state",
    );
    expect(await code("campaigns_request_budget_raise", { campaignId: f.campaign.id, budgetCents: 999_999 })).toBe(
      "plan_does_not_mail",
    );
    expect(await code("plans_request_change", { plan: "audit" })).toBe("invalid_state");
    expect(await code("audits_get", { auditId: "mla_00000000000000000000000000000000" })).toBe("not_found");
    expect(await code("audits_run", { audienceId: "aud_nope" })).toBe("not_found");
    expect(await code("contacts_apply_fix", { contactId: f.contacts[0].id })).toBe("invalid_state");
    expect(await code("crm_sync_start", { connectionId: "crm_00000000000000000000000000000000" })).toBe("not_found");
    expect(await code("crm_sync_get", { syncId: "cs_00000000000000000000000000000000" })).toBe("not_found");
    expect(await code("crm_sync_get", { syncId: "not-a-sync" })).toBe("invalid_argument");
  });
});
