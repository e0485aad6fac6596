import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { fakeId, generateCrm, generateLeads } from "@/test/crm-fakes/data";
import { type SalesforceFakeOptions, startSalesforceFake } from "@/test/crm-fakes/salesforce-fake";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { drainJobs } from "@/test/jobs";
import { ZConnectInput, ZLeadsInput } from "./schema";
import { connectCrm, getSync, listConnections, listIssues, setLeads, startSync } from "./service";

/** Salesforce Leads, a choice of the connection. Every query is scoped to the test's workspace (the PostgreSQL database is shared). */
let prisma: PrismaClient;
const fakes: { close(): Promise<void> }[] = [];
const owner = { kind: "user" as const, id: "usr_test", label: "owner@example.test" };
const KEY = "3MVG9-key";
const SECRET = "secret-1234567890";

beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
  process.env.CRM_TEST_ALLOW_LOCAL_URLS = "1";
  process.env.CRM_ENCRYPTION_KEY ??= Buffer.alloc(32, 7).toString("base64");
});
afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

/** 60 contacts at 12 companies, 30 leads (two pages of 20), lead members in the first campaign; one lead already converted. */
async function salesforce(o: { leads: boolean; options?: Partial<SalesforceFakeOptions> }) {
  const crm = generateCrm("salesforce", { contacts: 60, companies: 12 });
  const data = { ...crm, leads: generateLeads(crm, 30) };
  // Converted before any sync: its person is Contact 2 now; it is no second contact.
  Object.assign(data.leads[29], {
    convertedContactId: data.contacts[1].id,
    convertedAt: Date.now() - 86_400_000,
    email: data.contacts[1].email,
  });
  data.lists[0].members.push(data.leads[0].id, data.leads[1].id, data.leads[29].id);
  const fake = await startSalesforceFake(data, { clientId: KEY, clientSecret: SECRET, batchSize: 20, ...o.options });
  fakes.push(fake);
  const { workspaceId } = await createOwnerWorkspace(prisma);
  const connected = await connectCrm(prisma, {
    workspaceId,
    input: { kind: "salesforce", myDomainUrl: fake.url, clientId: KEY, clientSecret: SECRET, leads: o.leads },
    actor: owner,
  });
  expect(await drainJobs(prisma, { workspaceId })).toEqual(["succeeded"]);
  const sync = async () => {
    const { view } = await startSync(prisma, {
      workspaceId,
      connectionId: connected.connectionId,
      trigger: "owner",
      actor: owner,
    });
    expect(await drainJobs(prisma, { workspaceId })).toEqual(["succeeded"]);
    return getSync(prisma, { workspaceId, syncId: view.syncId });
  };
  const members = async (name: string) =>
    (
      await prisma.audienceMember.findMany({
        where: { workspaceId, audience: { name } },
        select: { contact: { select: { crmId: true } } },
      })
    )
      .map((m) => m.contact.crmId)
      .sort();
  return {
    fake,
    data,
    workspaceId,
    connected,
    sync,
    members,
    first: () => getSync(prisma, { workspaceId, syncId: connected.sync.syncId }),
  };
}

const leadQueries = (fake: { requests: { url: string }[] }) =>
  fake.requests.filter((r) => /FROM(\+|%20)Lead\b/.test(r.url));

describe("Salesforce Leads, synced", () => {
  it("full, then incremental: unconverted leads become contacts with their address and account, opt-outs suppressed, lead members in the campaign's audience; a conversion keeps one contact; a deleted lead is unlinked", async () => {
    const { fake, data, workspaceId, connected, sync, members, first } = await salesforce({ leads: true });
    expect(connected).toMatchObject({ leads: true, leadsNote: null });
    const done = await first();
    expect(done.counts).toMatchObject({
      contacts: { read: 60, created: 60, errors: 0 },
      leads: { read: 29, created: 29, errors: 0, converted: 0 },
      companies: { created: 12 },
      suppressions: { added: 1 + 1 },
    });
    // 29 unconverted leads over two pages: nextRecordsUrl followed.
    expect(
      fake.requests.some((r) => r.url.includes("IsConverted%20%3D%20false") || r.url.includes("IsConverted+%3D+false")),
    ).toBe(true);
    expect(fake.requests.filter((r) => /\/query\/01g/.test(r.url)).length).toBeGreaterThanOrEqual(1);
    expect(await prisma.contact.count({ where: { workspaceId } })).toBe(60 + 29);

    const lead = await prisma.contact.findFirstOrThrow({
      where: { workspaceId, crmId: data.leads[0].id },
      include: { account: true },
    });
    expect(lead).toMatchObject({
      source: "crm",
      sourceDetail: "Salesforce lead",
      email: data.leads[0].email,
      addressLine1: "200 Market St",
      addressLine2: "Suite 1",
      city: "Denver",
      region: "CO",
      postalCode: "80202",
      country: "US",
    });
    // Company "COMPANY 1 INC." is the account of that name (Account 001…1 synced from Salesforce); "Prospect 2 LLC" a new account by that name, with the email's company domain (as a CSV row's company column makes it).
    expect(lead.account).toMatchObject({ crmId: data.companies[0].id });
    const prospect = await prisma.contact.findFirstOrThrow({
      where: { workspaceId, crmId: data.leads[1].id },
      include: { account: true },
    });
    expect(prospect.account).toMatchObject({
      name: "Prospect 2 LLC",
      domain: "prospect2.example",
      source: "crm",
      crmId: null,
    });
    expect(
      await prisma.crmRecordLink.count({
        where: { connectionId: connected.connectionId, workspaceId, objectType: "lead" },
      }),
    ).toBe(29);
    expect(
      await prisma.suppression.count({
        where: { workspaceId, kind: "email", value: data.leads[24].email!, reason: "opt_out" },
      }),
    ).toBe(1);
    // The converted lead is Contact 2, once; its campaign membership is Contact 2's.
    expect(await prisma.contact.count({ where: { workspaceId, email: data.contacts[1].email } })).toBe(1);
    const q4 = await members("Q4 target accounts");
    expect(q4).toEqual(expect.arrayContaining([data.leads[0].id, data.leads[1].id, data.contacts[1].id]));
    expect(q4).toHaveLength(15 + 3);

    // Salesforce changes: a lead renamed, a new one, one converted into a new Contact, one deleted.
    const now = Date.now();
    Object.assign(data.leads[3], { lastName: "Renamed", modifiedAt: now });
    data.leads.push({ ...generateLeads(data, 31)[30], modifiedAt: now });
    const convertedContact = fakeId("salesforce", "003", 9001);
    data.contacts.push({
      ...data.contacts[2],
      id: convertedContact,
      firstName: data.leads[1].firstName,
      lastName: data.leads[1].lastName,
      email: null,
      companyId: data.companies[4].id,
      createdAt: now,
      modifiedAt: now,
    });
    Object.assign(data.leads[1], { convertedContactId: convertedContact, convertedAt: now });
    data.leads[4].deletedAt = now;
    const before = await prisma.contact.findFirstOrThrow({ where: { workspaceId, crmId: data.leads[1].id } });

    const incremental = await sync();
    expect(incremental).toMatchObject({ mode: "incremental", status: "succeeded" });
    expect(incremental.counts.leads).toMatchObject({ created: 1, updated: 1, converted: 1, errors: 0 });
    expect(incremental.counts.deleted).toMatchObject({ leads: 1, contacts: 0 });
    expect(incremental.counts.contacts).toMatchObject({ created: 0, updated: 1 });
    // The Contact the lead became is the lead's contact (no email to match it by: the link moved), now at the Contact's account.
    expect(await prisma.contact.count({ where: { workspaceId } })).toBe(60 + 29 + 1);
    const after = await prisma.contact.findUniqueOrThrow({ where: { id: before.id }, include: { account: true } });
    expect(after.account?.crmId).toBe(data.companies[4].id);
    expect(
      await prisma.crmRecordLink.findMany({
        where: { connectionId: connected.connectionId, workspaceId, localId: before.id },
        select: { objectType: true, externalId: true },
      }),
    ).toEqual([{ objectType: "contact", externalId: convertedContact }]);
    // The deleted lead's contact stays, unlinked; the renamed lead is renamed.
    expect(await prisma.contact.count({ where: { workspaceId, crmId: data.leads[4].id } })).toBe(1);
    expect(
      await prisma.crmRecordLink.count({
        where: { connectionId: connected.connectionId, workspaceId, objectType: "lead", externalId: data.leads[4].id },
      }),
    ).toBe(0);
    expect((await prisma.contact.findFirstOrThrow({ where: { workspaceId, crmId: data.leads[3].id } })).lastName).toBe(
      "Renamed",
    );
    // Incremental lead reads are by SystemModstamp.
    expect(
      leadQueries(fake).some((r) => /IsConverted(\+|%20)%3D(\+|%20)false(\+|%20)AND(\+|%20)SystemModstamp/.test(r.url)),
    ).toBe(true);
    // The converted lead's campaign member now names its Contact: still in the audience, once.
    expect(await members("Q4 target accounts")).toEqual(expect.arrayContaining([data.leads[0].id, data.leads[1].id]));
  }, 120_000);

  it("a lead converted just before the daily full sync: still one contact, now the Contact's", async () => {
    const { data, workspaceId, connected, sync } = await salesforce({ leads: true });
    const now = Date.now();
    const contactId = fakeId("salesforce", "003", 9002);
    data.contacts.push({
      ...data.contacts[2],
      id: contactId,
      firstName: "Converted",
      lastName: "Person",
      email: null,
      createdAt: now,
      modifiedAt: now,
    });
    Object.assign(data.leads[2], { convertedContactId: contactId, convertedAt: now });
    const local = await prisma.contact.findFirstOrThrow({ where: { workspaceId, crmId: data.leads[2].id } });
    await prisma.job.updateMany({ where: { workspaceId }, data: { finishedAt: new Date(now - 25 * 3_600_000) } });
    const full = await sync();
    expect(full).toMatchObject({
      mode: "full",
      counts: { leads: { read: 28, converted: 1 }, contacts: { created: 0 }, deleted: { leads: 0 } },
    });
    expect(await prisma.contact.count({ where: { workspaceId } })).toBe(60 + 29);
    expect(
      await prisma.crmRecordLink.findMany({
        where: { connectionId: connected.connectionId, workspaceId, localId: local.id },
        select: { objectType: true, externalId: true },
      }),
    ).toEqual([{ objectType: "contact", externalId: contactId }]);
  }, 60_000);

  it("leads off (the default): no Lead is read, lead members stay out of audiences", async () => {
    const { fake, data, workspaceId, connected, members, first } = await salesforce({ leads: false });
    expect(connected).toMatchObject({ leads: false, leadsNote: null });
    expect((await first()).counts).toMatchObject({ contacts: { created: 60 }, leads: { read: 0, created: 0 } });
    expect(leadQueries(fake)).toEqual([]);
    expect(await prisma.contact.count({ where: { workspaceId } })).toBe(60);
    expect(await members("Q4 target accounts")).not.toContain(data.leads[0].id);
    expect(await members("Q4 target accounts")).toHaveLength(15 + 1);
  }, 60_000);

  it("an org whose Run As user cannot read Leads connects with leads off and says why; turning them on is refused with the same sentence", async () => {
    const { fake, workspaceId, connected, first } = await salesforce({
      leads: true,
      options: { hiddenObjects: ["Lead"] },
    });
    expect(connected).toMatchObject({ leads: false, leadsNote: expect.stringContaining("cannot read Leads") });
    expect((await first()).counts).toMatchObject({ contacts: { created: 60 }, leads: { read: 0 } });
    const [view] = await listConnections(prisma, { workspaceId });
    expect(view).toMatchObject({
      status: "connected",
      leads: false,
      leadsNote: expect.stringContaining("give it the Read permission on Leads"),
    });
    const requests = leadQueries(fake).length;
    await expect(
      setLeads(prisma, { workspaceId, connectionId: connected.connectionId, leads: true, actor: owner }),
    ).rejects.toMatchObject({ code: "validation_failed", message: expect.stringContaining("cannot read Leads") });
    expect(leadQueries(fake).length).toBe(requests + 1);
    expect((await listConnections(prisma, { workspaceId }))[0].leads).toBe(false);
  }, 60_000);

  it("a Run As user who loses access to Leads: the sync goes on without them, leads switched off with the reason", async () => {
    const hiddenObjects: string[] = [];
    const { workspaceId, connected, sync } = await salesforce({ leads: true, options: { hiddenObjects } });
    hiddenObjects.push("Lead");
    const done = await sync();
    expect(done.counts).toMatchObject({ leads: { read: 0 }, issues: { errors: 0 } });
    const [view] = await listConnections(prisma, { workspaceId });
    expect(view).toMatchObject({ leads: false, leadsNote: expect.stringContaining("cannot read Leads") });
    const warnings = await listIssues(prisma, { workspaceId, syncId: done.syncId, severity: "warning", take: 100 });
    expect(warnings.issues.map((i) => i.message)).toContainEqual(
      expect.stringMatching(/^leads not synced: .*cannot read Leads/),
    );
    expect(
      await prisma.crmRecordLink.count({
        where: { connectionId: connected.connectionId, workspaceId, objectType: "lead" },
      }),
    ).toBe(0);
    expect(await prisma.contact.count({ where: { workspaceId } })).toBe(60 + 29);
  }, 60_000);

  it("turned on afterwards, every lead is read; turned off, the leads are unlinked, their contacts kept and out of the campaign audience", async () => {
    const { data, workspaceId, connected, sync, members } = await salesforce({ leads: false });
    await expect(
      setLeads(prisma, { workspaceId, connectionId: connected.connectionId, leads: true, actor: owner }),
    ).resolves.toMatchObject({ leads: true, leadsNote: null });
    const on = await sync();
    expect(on.counts.leads).toMatchObject({ read: 29, created: 29 });
    expect(await members("Q4 target accounts")).toContain(data.leads[0].id);

    await expect(
      setLeads(prisma, { workspaceId, connectionId: connected.connectionId, leads: false, actor: owner }),
    ).resolves.toMatchObject({ leads: false });
    expect(
      await prisma.crmRecordLink.count({
        where: { connectionId: connected.connectionId, workspaceId, objectType: "lead" },
      }),
    ).toBe(0);
    expect(await prisma.contact.count({ where: { workspaceId } })).toBe(60 + 29);
    expect(await members("Q4 target accounts")).not.toContain(data.leads[0].id);
    const off = await sync();
    expect(off.counts.leads.read).toBe(0);
    const log = await prisma.auditLogEntry.findMany({
      where: { workspaceId, action: "crm.leads_changed" },
      orderBy: { createdAt: "asc" },
    });
    expect(log.map((l) => (l.data as { leads: boolean }).leads)).toEqual([true, false]);
    const issues = await listIssues(prisma, { workspaceId, syncId: on.syncId, severity: "warning", take: 100 });
    expect(issues.issues.some((i) => i.message.startsWith(`lead ${data.leads[9].id}: no address`))).toBe(true);
  }, 120_000);

  it("bad input changes nothing: leads on a HubSpot connection, a missing connection", async () => {
    const { workspaceId } = await createOwnerWorkspace(prisma);
    const hubspot = ZConnectInput.safeParse({ kind: "hubspot", accessToken: "pat-na1-11111111-2222", leads: true });
    expect(hubspot.success ? null : hubspot.error.issues[0].message).toBe(
      "Leads are a Salesforce choice; a HubSpot connection syncs contacts, companies, deals and lists.",
    );
    expect(
      ZConnectInput.parse({
        kind: "salesforce",
        myDomainUrl: "https://acme.my.salesforce.com",
        clientId: KEY,
        clientSecret: SECRET,
      }),
    ).toMatchObject({ leads: false });
    expect(ZLeadsInput.safeParse({ connectionId: `crm_${"0".repeat(32)}`, leads: "yes" }).success).toBe(false);
    await expect(
      setLeads(prisma, { workspaceId, connectionId: `crm_${"0".repeat(32)}`, leads: true, actor: owner }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await prisma.crmConnection.count({ where: { workspaceId } })).toBe(0);
  });
});
