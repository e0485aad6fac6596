import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { createApiKey } from "@/server/records/api-keys/service";
import { connectCrm } from "@/server/programme/crm/service";
import { generateCrm } from "@/test/crm-fakes/data";
import { startHubSpotFake } from "@/test/crm-fakes/hubspot-fake";
import { startSalesforceFake } from "@/test/crm-fakes/salesforce-fake";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace, uniq } from "@/test/factories";
import { drainJobs } from "@/test/jobs";
import { agentFor, toolErrorOf, toolResult } from "@/test/mcp";
import { webhookEvents } from "@/server/programme/webhooks/events";
import { handleRestRequest } from "./handler";

/**
 * A contact named the way the caller's own systems know it: our id, its email, or the record id of
 * the CRM it was synced from (hubspot:<id>, salesforce:<id>). The workspace is synced from a
 * HubSpot and a Salesforce fake holding the same people, so each contact has two CRM records.
 */

let prisma: PrismaClient;
const fakes: { close(): Promise<void> }[] = [];
const owner = { kind: "user" as const, id: "usr_test", label: "owner@example.test" };
const hubspot = generateCrm("hubspot", { contacts: 6 });
const salesforce = generateCrm("salesforce", { contacts: 6 });
let workspaceId: string;
let campaignId: string;
let secret: string;
/** Our id of the i-th person of the fakes. */
let ours: string[];

beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
  process.env.CRM_TEST_ALLOW_LOCAL_URLS = "1";
  process.env.CRM_ENCRYPTION_KEY ??= Buffer.alloc(32, 7).toString("base64");
  const hs = await startHubSpotFake(hubspot, { token: "pat-na1-11111111-2222" });
  const sf = await startSalesforceFake(salesforce, { clientId: "3MVG9-key", clientSecret: "secret-1234567890" });
  fakes.push(hs, sf);
  process.env.CRM_TEST_HUBSPOT_BASE_URL = hs.url;
  const o = await createOwnerWorkspace(prisma, { plan: "paid" });
  workspaceId = o.workspaceId;
  await connectCrm(prisma, {
    workspaceId,
    input: { kind: "hubspot", accessToken: "pat-na1-11111111-2222" },
    actor: owner,
  });
  expect(await drainJobs(prisma, { workspaceId })).toEqual(["succeeded"]);
  await connectCrm(prisma, {
    workspaceId,
    input: { kind: "salesforce", myDomainUrl: sf.url, clientId: "3MVG9-key", clientSecret: "secret-1234567890" },
    actor: owner,
  });
  expect(await drainJobs(prisma, { workspaceId })).toEqual(["succeeded"]);

  ours = [];
  for (const person of hubspot.contacts) {
    const contact = await prisma.contact.findFirstOrThrow({ where: { workspaceId, email: person.email } });
    ours.push(contact.id);
  }
  const audience = await prisma.audience.create({ data: { workspaceId, name: "Everyone" } });
  await prisma.audienceMember.createMany({
    data: ours.map((contactId) => ({ workspaceId, audienceId: audience.id, contactId })),
  });
  const campaign = await prisma.campaign.create({
    data: {
      workspaceId,
      name: "Live",
      format: "postcard",
      status: "live",
      acceptsApiEvents: true,
      audienceId: audience.id,
      budgetCents: 10_000,
    },
  });
  campaignId = campaign.id;
  secret = (
    await createApiKey(prisma, { workspaceId, name: "CRM workflow", scopes: ["post_entry_events"], actor: owner })
  ).secret;
});
afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

async function rest(method: "GET" | "POST", path: string, body?: unknown) {
  const res = await handleRestRequest(
    new Request(`http://dm.test/api/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${secret}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }),
  );
  return { status: res.status, body: await res.json() };
}

const post = (contactId: string, idempotencyKey = uniq("k")) =>
  rest("POST", `/campaigns/${campaignId}/events`, { contactId, idempotencyKey });

const crmIdsOf = (i: number) => [`hubspot:${hubspot.contacts[i].id}`, `salesforce:${salesforce.contacts[i].id}`];

describe("a contact named by the caller's own id", () => {
  it("admits the same contact by email (any case), HubSpot record id or Salesforce record id, and the status read names all three", async () => {
    const cases: [string, number][] = [
      [hubspot.contacts[0].email!.toUpperCase(), 0],
      [`hubspot:${hubspot.contacts[1].id}`, 1],
      [`salesforce:${salesforce.contacts[2].id}`, 2],
      [ours[3], 3],
    ];
    for (const [contactId, i] of cases) {
      const accepted = await post(contactId);
      expect(accepted, contactId).toMatchObject({ status: 202, body: { status: "accepted" } });
      const event = await prisma.entryEvent.findUniqueOrThrow({ where: { id: accepted.body.eventId } });
      expect(event.contactId, contactId).toBe(ours[i]);
      const read = await rest("GET", `/campaigns/${campaignId}/events/${accepted.body.eventId}`);
      expect(read.body, contactId).toMatchObject({
        eventId: accepted.body.eventId,
        contactId: ours[i],
        contactEmail: hubspot.contacts[i].email,
        contactCrmIds: crmIdsOf(i),
      });
    }
  });

  it("treats the same event named two ways as one: the second call replays the first", async () => {
    const key = uniq("same");
    const byEmail = await post(hubspot.contacts[4].email!, key);
    const byCrm = await post(`salesforce:${salesforce.contacts[4].id}`, key);
    expect(byEmail.status).toBe(202);
    expect(byCrm).toEqual({ status: 202, body: byEmail.body });
    expect(await prisma.entryEvent.count({ where: { workspaceId, idempotencyKey: key } })).toBe(1);
  });

  it("refuses a name that matches no contact, saying which form did not match, and writes nothing", async () => {
    const before = await prisma.entryEvent.count({ where: { workspaceId } });
    const refusals: [string, string][] = [
      ["nobody@nowhere.example", "No contact in this workspace has the email address nobody@nowhere.example."],
      ["hubspot:424242", "No contact in this workspace has the HubSpot record id 424242."],
      // A Salesforce id is not a HubSpot one: each form looks only at its own CRM's records.
      [
        `hubspot:${salesforce.contacts[0].id}`,
        `No contact in this workspace has the HubSpot record id ${salesforce.contacts[0].id}.`,
      ],
      [
        "salesforce:003Fa9999999999AAA",
        "No contact in this workspace has the Salesforce record id 003Fa9999999999AAA.",
      ],
      ["salesforce:", "salesforce: names no CRM record id after the colon."],
    ];
    for (const [contactId, detail] of refusals) {
      const res = await post(contactId);
      expect(res.status, contactId).toBe(422);
      expect(res.body, contactId).toMatchObject({
        type: expect.stringMatching(/contact-not-found$/),
        detail: `${detail} Nothing was written.`,
        errors: [{ pointer: "/contactId", detail }],
      });
    }
    // Our own id keeps its own words.
    const unknown = await post("ctc_nothing");
    expect(unknown.body.errors).toEqual([
      { pointer: "/contactId", detail: "No contact with this id exists in the workspace." },
    ]);
    expect(await prisma.entryEvent.count({ where: { workspaceId } })).toBe(before);
  });

  it("refuses a CRM id that names two contacts, and another workspace's contact is never found", async () => {
    // An imported contact whose CRM id column held the Salesforce id a synced contact is linked to.
    await prisma.contact.create({
      data: { workspaceId, firstName: "Twin", lastName: "Import", crmId: salesforce.contacts[5].id },
    });
    const before = await prisma.entryEvent.count({ where: { workspaceId } });
    const res = await post(`salesforce:${salesforce.contacts[5].id}`);
    const detail = `More than one contact in this workspace has the Salesforce record id ${salesforce.contacts[5].id}; name the contact by its id (ctc_…) instead.`;
    expect(res).toMatchObject({ status: 422, body: { errors: [{ pointer: "/contactId", detail }] } });

    const other = await createOwnerWorkspace(prisma, { plan: "paid" });
    const stranger = await prisma.contact.create({
      data: { workspaceId: other.workspaceId, firstName: "Out", lastName: "Side", email: "outside@other.example" },
    });
    expect((await post("outside@other.example")).body.errors[0].detail).toBe(
      "No contact in this workspace has the email address outside@other.example.",
    );
    expect((await post(stranger.id)).status).toBe(422);
    expect(await prisma.entryEvent.count({ where: { workspaceId } })).toBe(before);
  });
});

describe("outbound webhooks", () => {
  it("carry the contact's email and CRM ids beside its id, for every event that names a contact", async () => {
    await prisma.webhookEndpoint.create({
      data: { workspaceId, url: "https://hooks.example/in", events: ["entry_event.skipped"], secretSealed: "unused" },
    });
    const accepted = await post(`salesforce:${salesforce.contacts[3].id}`);
    // What the lifecycle writes when a gate skips the event; the database writes the webhook event with it.
    await prisma.entryEvent.update({
      where: { id: accepted.body.eventId },
      data: { status: "skipped", skipReason: "suppressed", completedAt: new Date() },
    });
    const written = await prisma.webhookEvent.findFirstOrThrow({
      where: { workspaceId, type: "entry_event.skipped" },
    });
    const data = webhookEvents["entry_event.skipped"].data.parse(written.data);
    expect(data).toMatchObject({
      eventId: accepted.body.eventId,
      contactId: ours[3],
      contactEmail: hubspot.contacts[3].email,
      contactCrmIds: crmIdsOf(3),
    });
  });
});

describe("the MCP entry-event tools", () => {
  it("admit by email or CRM id and answer with our id, the email and the CRM ids; a refused batch row says which form did not match", async () => {
    const agent = await agentFor(prisma, workspaceId);
    const posted = toolResult(
      await agent.callTool({
        name: "entry_events_post",
        arguments: { campaignId, contactId: `hubspot:${hubspot.contacts[0].id}`, idempotencyKey: uniq("mcp") },
      }),
    );
    expect(posted).toMatchObject({
      contactId: ours[0],
      contactEmail: hubspot.contacts[0].email,
      contactCrmIds: crmIdsOf(0),
    });
    const detail = toolResult(
      await agent.callTool({ name: "entry_events_get", arguments: { campaignId, eventId: posted.eventId } }),
    );
    expect(detail).toMatchObject({
      contactId: ours[0],
      contactEmail: hubspot.contacts[0].email,
      contactCrmIds: crmIdsOf(0),
    });

    const batch = await agent.callTool({
      name: "entry_events_post_batch",
      arguments: {
        campaignId,
        events: [
          { contactId: hubspot.contacts[1].email!, idempotencyKey: uniq("b") },
          { contactId: "salesforce:003Fa0000000404AAA", idempotencyKey: uniq("b") },
        ],
      },
    });
    const rows = (batch.structuredContent as { result: { results: Record<string, unknown>[] } }).result.results;
    expect(rows[0]).toMatchObject({
      contactId: ours[1],
      contactEmail: hubspot.contacts[1].email,
      contactCrmIds: crmIdsOf(1),
      error: null,
    });
    expect(rows[1]).toMatchObject({
      contactId: "salesforce:003Fa0000000404AAA",
      contactEmail: null,
      contactCrmIds: [],
      eventId: null,
      error: {
        message: "No contact in this workspace has the Salesforce record id 003Fa0000000404AAA. Nothing was written.",
      },
    });

    const refused = await agent.callTool({
      name: "entry_events_post",
      arguments: { campaignId, contactId: "nobody@nowhere.example", idempotencyKey: uniq("mcp") },
    });
    expect(refused.isError).toBe(true);
    expect(toolErrorOf(refused)?.message).toBe(
      "No contact in this workspace has the email address nobody@nowhere.example. Nothing was written.",
    );

    const listed = toolResult<{ events: Record<string, unknown>[] }>(
      await agent.callTool({ name: "entry_events_list", arguments: { campaignId } }),
    );
    expect(listed.events.find((e) => e.eventId === posted.eventId)).toMatchObject({
      contactId: ours[0],
      contactEmail: hubspot.contacts[0].email,
      contactCrmIds: crmIdsOf(0),
    });
  });
});

describe("the MCP tools that take a contact", () => {
  it("contacts_get and contacts_update find the contact by email or CRM record id; an unknown one is refused and nothing changes", async () => {
    const agent = await agentFor(prisma, workspaceId);
    const read = toolResult(
      await agent.callTool({
        name: "contacts_get",
        arguments: { contactId: `salesforce:${salesforce.contacts[2].id}` },
      }),
    );
    expect(read).toMatchObject({ id: ours[2], email: hubspot.contacts[2].email });

    const edited = toolResult(
      await agent.callTool({
        name: "contacts_update",
        arguments: { contactId: `hubspot:${hubspot.contacts[2].id}`, fields: { title: "VP Operations" } },
      }),
    );
    expect(edited).toMatchObject({ id: ours[2], title: "VP Operations" });

    const refused = await agent.callTool({
      name: "contacts_update",
      arguments: { contactId: "hubspot:999999", fields: { title: "Nobody" } },
    });
    expect(refused.isError).toBe(true);
    expect(toolErrorOf(refused)?.message).toBe(
      "No contact in this workspace has the HubSpot record id 999999. Nothing was written.",
    );
    expect(await prisma.contact.count({ where: { workspaceId, title: "Nobody" } })).toBe(0);
  });

  it("campaigns_send_to takes each contact by any of its names, answers with its email and CRM ids, and refuses the whole call when one matches nothing", async () => {
    const agent = await agentFor(prisma, workspaceId);
    const before = await prisma.entryEvent.count({ where: { workspaceId } });
    const refused = await agent.callTool({
      name: "campaigns_send_to",
      arguments: { campaignId, contactIds: [ours[5], "someone@else.example"] },
    });
    expect(refused.isError).toBe(true);
    expect(toolErrorOf(refused)?.message).toBe(
      "No contact in this workspace has the email address someone@else.example. Nothing was written.",
    );
    const twice = await agent.callTool({
      name: "campaigns_send_to",
      arguments: { campaignId, contactIds: [ours[5], hubspot.contacts[5].email!] },
    });
    expect(twice.isError).toBe(true);
    expect(await prisma.entryEvent.count({ where: { workspaceId } })).toBe(before);

    const sent = toolResult<{ entries: Record<string, unknown>[] }>(
      await agent.callTool({
        name: "campaigns_send_to",
        arguments: { campaignId, contactIds: [hubspot.contacts[5].email!, `hubspot:${hubspot.contacts[4].id}`] },
      }),
    );
    expect(sent.entries).toEqual([
      expect.objectContaining({
        contactId: ours[5],
        contactEmail: hubspot.contacts[5].email,
        contactCrmIds: crmIdsOf(5),
      }),
      expect.objectContaining({
        contactId: ours[4],
        contactEmail: hubspot.contacts[4].email,
        contactCrmIds: crmIdsOf(4),
      }),
    ]);
  });
});
