import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import type { JobHandlers } from "@/server/records/jobs/runner";
import { fakeId, generateCrm } from "@/test/crm-fakes/data";
import { startHubSpotFake } from "@/test/crm-fakes/hubspot-fake";
import { startSalesforceFake } from "@/test/crm-fakes/salesforce-fake";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { drainJobs } from "@/test/jobs";
import { crmSyncJob } from "./job";
import { queueDueSyncs } from "./schedule";
import { connectCrm, getSync, listConnections, listIssues, startSync } from "./service";

let prisma: PrismaClient;
const fakes: { close(): Promise<void> }[] = [];
const owner = { kind: "user" as const, id: "usr_test", label: "owner@example.test" };

beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
  process.env.CRM_TEST_ALLOW_LOCAL_URLS = "1";
  process.env.CRM_ENCRYPTION_KEY ??= Buffer.alloc(32, 7).toString("base64");
});
afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

async function hubspotWorkspace(contacts: number, opts: { scopes?: string[]; expiredTokens?: string[] } = {}) {
  const fake = await startHubSpotFake(generateCrm("hubspot", { contacts }), {
    token: "pat-na1-11111111-2222",
    scopes: opts.scopes,
    expiredTokens: opts.expiredTokens,
  });
  fakes.push(fake);
  process.env.CRM_TEST_HUBSPOT_BASE_URL = fake.url;
  const o = await createOwnerWorkspace(prisma);
  return { fake, o };
}

const connectHubSpot = (workspaceId: string, accessToken = "pat-na1-11111111-2222") =>
  connectCrm(prisma, { workspaceId, input: { kind: "hubspot", accessToken }, actor: owner });

describe("a HubSpot connection", () => {
  it("first syncs 5,000 contacts across pages: accounts by company, lists as audiences, opt-outs suppressed, deals as outcomes, issues per object", async () => {
    const { fake, o } = await hubspotWorkspace(5000);
    const { connectionId, sync } = await connectHubSpot(o.workspaceId);
    expect(sync).toMatchObject({ mode: "full", status: "queued", trigger: "owner" });
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId })).toEqual(["succeeded"]);
    const done = await getSync(prisma, { workspaceId: o.workspaceId, syncId: sync.syncId });
    expect(done.status).toBe("succeeded");
    expect(done.counts).toMatchObject({
      companies: { read: 1000, created: 1000, errors: 0 },
      contacts: { read: 5000, created: 5000, updated: 0, errors: 0 },
      deals: { read: 500, errors: 0 },
      lists: { read: 2, errors: 0 },
      audienceMembers: { added: 1250 + 25, removed: 0 },
      suppressions: { added: 100 },
      issues: { errors: 0, warnings: 500 },
    });
    // 500 deals: each opportunity_created and pipeline_dollars; a third (167) won.
    expect(done.counts.outcomes.created).toBe(500 * 2 + 167);
    expect(done.job.progress).toMatchObject({ done: 5000 + 1000 + 500 + 2, unit: "objects" });
    expect(fake.requests.filter((r) => r.url.startsWith("/crm/v3/objects/contacts?limit=100")).length).toBe(50);

    const contacts = await prisma.contact.count({
      where: { workspaceId: o.workspaceId, source: "crm", sourceDetail: "HubSpot" },
    });
    expect(contacts).toBe(5000);
    const first = await prisma.contact.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, crmId: fake.data.contacts[0].id },
      include: { account: true },
    });
    expect(first).toMatchObject({
      email: fake.data.contacts[0].email,
      country: "US",
      city: "Boston",
      account: { crmId: fake.data.companies[0].id, domain: "company1.example", source: "crm" },
    });
    expect(
      await prisma.suppression.count({ where: { workspaceId: o.workspaceId, source: "crm", reason: "opt_out" } }),
    ).toBe(100);
    const audiences = await prisma.audience.findMany({
      where: { workspaceId: o.workspaceId, source: "crm" },
      include: { _count: { select: { members: true } } },
      orderBy: { name: "asc" },
    });
    expect(audiences.map((a) => [a.name, a._count.members])).toEqual([
      ["Event attendees", 25],
      ["Q4 target accounts", 1250],
    ]);
    const outcome = await prisma.accountOutcome.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, kind: "closed_won", externalId: fake.data.deals[0].id },
    });
    expect(outcome).toMatchObject({
      source: "crm",
      crmConnectionId: connectionId,
      sourceDetail: `HubSpot deal ${fake.data.deals[0].id}`,
      amountCents: 100_000n,
      occurrenceKey: `x:${fake.data.deals[0].id}`,
    });
    const warnings = await listIssues(prisma, { workspaceId: o.workspaceId, syncId: sync.syncId, take: 2 });
    expect(warnings.issues[0]).toEqual({
      objectType: "contact",
      objectId: expect.stringMatching(/^\d+$/),
      severity: "warning",
      message: `contact ${warnings.issues[0].objectId}: no address; synced, but it cannot be mailed until it has one`,
    });
    expect(warnings.nextCursor).not.toBeNull();

    // The credentials are encrypted at rest and never in a view.
    const row = await prisma.crmConnection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(row.credentials).toMatch(/^v1\.[0-9a-f]{8}\./);
    expect(row.credentials).not.toContain("pat-na1");
    expect(JSON.stringify(await listConnections(prisma, { workspaceId: o.workspaceId }))).not.toContain("pat-na1");
  }, 180_000);

  it("then syncs incrementally: one changed contact and one new won deal, and counts no outcome twice", async () => {
    const { fake, o } = await hubspotWorkspace(300);
    const { connectionId } = await connectHubSpot(o.workspaceId);
    await drainJobs(prisma, { workspaceId: o.workspaceId });
    const outcomesBefore = await prisma.accountOutcome.count({ where: { workspaceId: o.workspaceId } });

    const changed = fake.data.contacts[42];
    changed.city = "Cambridge";
    changed.modifiedAt = Date.now();
    fake.data.deals.push({
      id: "5009999",
      name: "Big renewal",
      companyId: fake.data.companies[3].id,
      amount: 12_500.5,
      createdAt: Date.now() - 86_400_000,
      closedAt: Date.now(),
      won: true,
      modifiedAt: Date.now(),
    });
    const requestsBefore = fake.requests.length;
    const { view } = await startSync(prisma, {
      workspaceId: o.workspaceId,
      connectionId,
      trigger: "owner",
      actor: owner,
    });
    expect(view.mode).toBe("incremental");
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId })).toEqual(["succeeded"]);
    const done = await getSync(prisma, { workspaceId: o.workspaceId, syncId: view.syncId });
    // Only what changed (and the few newest objects re-read in the two-minute overlap, unchanged).
    expect(done.counts).toMatchObject({
      companies: { created: 0, updated: 0 },
      contacts: { updated: 1, created: 0 },
      deals: { errors: 0 },
      outcomes: { created: 3, updated: 0, removed: 0 },
    });
    expect(done.counts.contacts.read).toBeLessThanOrEqual(4);
    expect(done.counts.deals.read).toBeLessThanOrEqual(4);
    expect(fake.requests.slice(requestsBefore).some((r) => r.url === "/crm/v3/objects/contacts/search")).toBe(true);
    expect(
      await prisma.contact.findFirst({
        where: { workspaceId: o.workspaceId, crmId: changed.id },
        select: { city: true },
      }),
    ).toEqual({ city: "Cambridge" });
    const won = await prisma.accountOutcome.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, kind: "closed_won", externalId: "5009999" },
      include: { account: true },
    });
    expect(won).toMatchObject({ amountCents: 1_250_050n, account: { crmId: fake.data.companies[3].id } });

    // The same deal again (its amount changed), and a sync with nothing new: never a second outcome.
    fake.data.deals.at(-1)!.amount = 13_000;
    fake.data.deals.at(-1)!.modifiedAt = Date.now() + 1000;
    const again = await startSync(prisma, { workspaceId: o.workspaceId, connectionId, trigger: "owner", actor: owner });
    await drainJobs(prisma, { workspaceId: o.workspaceId });
    expect((await getSync(prisma, { workspaceId: o.workspaceId, syncId: again.view.syncId })).counts.outcomes).toEqual({
      created: 0,
      updated: 3,
      removed: 0,
    });
    expect(await prisma.accountOutcome.count({ where: { workspaceId: o.workspaceId } })).toBe(outcomesBefore + 3);
    expect(
      await prisma.accountOutcome.findFirst({
        where: { workspaceId: o.workspaceId, kind: "closed_won", externalId: "5009999" },
        select: { amountCents: true },
      }),
    ).toEqual({ amountCents: 1_300_000n });

    // A deal no longer won loses its closed_won.
    fake.data.deals.at(-1)!.won = false;
    fake.data.deals.at(-1)!.modifiedAt = Date.now() + 2000;
    await startSync(prisma, { workspaceId: o.workspaceId, connectionId, trigger: "owner", actor: owner });
    await drainJobs(prisma, { workspaceId: o.workspaceId });
    expect(await prisma.accountOutcome.count({ where: { workspaceId: o.workspaceId, externalId: "5009999" } })).toBe(2);
  }, 120_000);

  it("waits out a 429 in the middle for as long as Retry-After says, and finishes", async () => {
    const { fake, o } = await hubspotWorkspace(600);
    fake.rateLimitNext(1, 1, 9);
    await connectHubSpot(o.workspaceId);
    // The check of the credentials took 5 requests, the estimate 3: the 429 lands among the sync's pages.
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId })).toEqual(["succeeded"]);
    const [c] = await listConnections(prisma, { workspaceId: o.workspaceId });
    expect(c.lastSync?.counts).toMatchObject({ rateLimitWaits: 1, contacts: { created: 600 } });
    expect(await prisma.contact.count({ where: { workspaceId: o.workspaceId } })).toBe(600);
    const i = fake.requests.findIndex((r) => r.status === 429);
    expect(i).toBeGreaterThan(8);
    expect(fake.requests[i + 1].url).toBe(fake.requests[i].url);
    expect(fake.requests[i + 1].at - fake.requests[i].at).toBeGreaterThanOrEqual(990);
  }, 60_000);

  it("resumes after a crash mid-sync from its last saved cursor: no contact twice, none lost, exact counts", async () => {
    const { o } = await hubspotWorkspace(1000);
    await connectHubSpot(o.workspaceId);
    let shift = 0;
    let checkpoints = 0;
    const crashing: JobHandlers = {
      crm_sync: {
        ...crmSyncJob,
        run: (run) =>
          crmSyncJob.run({
            ...(run as Parameters<typeof crmSyncJob.run>[0]),
            checkpoint: async (tx, cp, done, total) => {
              if (++checkpoints === 6) {
                // The worker dies inside the sixth page's transaction (the fourth page of contacts): it rolls back.
                shift = 10 * 60_000;
                throw new Error("worker died");
              }
              return run.checkpoint(tx, cp, done, total);
            },
          }),
      },
    };
    const clock = () => new Date(Date.now() + shift);
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId, handlers: crashing, now: clock })).toEqual(["retry"]);
    expect(await prisma.contact.count({ where: { workspaceId: o.workspaceId } })).toBe(300);
    shift += 60_000;
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId, handlers: crashing, now: clock })).toEqual([
      "succeeded",
    ]);
    const [c] = await listConnections(prisma, { workspaceId: o.workspaceId });
    expect(c.lastSync?.counts).toMatchObject({
      companies: { read: 200, created: 200 },
      contacts: { read: 1000, created: 1000, updated: 0, unchanged: 0 },
      issues: { warnings: 100 },
    });
    expect(await prisma.contact.count({ where: { workspaceId: o.workspaceId } })).toBe(1000);
    expect(await prisma.account.count({ where: { workspaceId: o.workspaceId } })).toBe(200);
    expect(await prisma.crmSyncIssue.count({ where: { syncId: c.lastSync!.syncId } })).toBe(100);
  }, 60_000);

  it("refuses wrong credentials with a sentence naming what is missing, and writes nothing", async () => {
    const { o } = await hubspotWorkspace(5, {
      scopes: ["crm.objects.contacts.read", "crm.objects.companies.read", "crm.lists.read"],
      expiredTokens: ["pat-na1-old-token"],
    });
    await expect(connectHubSpot(o.workspaceId, "pat-na1-wrong-token")).rejects.toMatchObject({
      code: "validation_failed",
      message: expect.stringContaining("HubSpot did not accept this access token"),
    });
    await expect(connectHubSpot(o.workspaceId, "pat-na1-old-token")).rejects.toMatchObject({
      code: "validation_failed",
      message: expect.stringContaining("HubSpot says this access token has expired"),
    });
    await expect(connectHubSpot(o.workspaceId)).rejects.toMatchObject({
      code: "validation_failed",
      message:
        "The private app lacks the crm.objects.deals.read scope. Add it in HubSpot (Settings → Integrations → Private apps → your app → Scopes), then paste the token again.",
    });
    expect(await prisma.crmConnection.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
    expect(await prisma.job.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
  });

  it("keeps going past objects that cannot be synced, each with its reason", async () => {
    const { fake, o } = await hubspotWorkspace(20);
    Object.assign(fake.data.contacts[3], { firstName: "", lastName: "", email: null });
    fake.data.deals[0].companyId = null;
    const { sync } = await connectHubSpot(o.workspaceId);
    await drainJobs(prisma, { workspaceId: o.workspaceId });
    const done = await getSync(prisma, { workspaceId: o.workspaceId, syncId: sync.syncId });
    expect(done).toMatchObject({
      status: "succeeded",
      counts: { contacts: { created: 19, errors: 1 }, deals: { read: 2, errors: 1 } },
    });
    const errors = await listIssues(prisma, {
      workspaceId: o.workspaceId,
      syncId: sync.syncId,
      severity: "error",
      take: 10,
    });
    expect(errors.issues.map((i) => i.message)).toEqual([
      `contact ${fake.data.contacts[3].id}: no name and no email: a contact needs at least one of them; not synced`,
      `deal ${fake.data.deals[0].id}: no associated company; not counted`,
    ]);
  });

  it("queues each due scheduled sync once, whatever the number of workers ticking", async () => {
    const { o } = await hubspotWorkspace(5);
    const { connectionId } = await connectHubSpot(o.workspaceId);
    await drainJobs(prisma, { workspaceId: o.workspaceId });
    await prisma.crmConnection.update({
      where: { id: connectionId },
      data: { nextSyncAt: new Date(Date.now() - 1000) },
    });
    const ticks = await Promise.all([queueDueSyncs(prisma), queueDueSyncs(prisma), queueDueSyncs(prisma)]);
    expect(ticks.flat().filter((id) => id.startsWith("cs_"))).toHaveLength(1);
    const c = await prisma.crmConnection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(c.nextSyncAt!.getTime()).toBeGreaterThan(Date.now() + 59 * 60_000);
    expect(await prisma.crmSync.count({ where: { connectionId, trigger: "schedule" } })).toBe(1);
  });
});

describe("a Salesforce connection", () => {
  it("syncs Accounts, Contacts, Campaigns and Opportunities through nextRecordsUrl, then incrementally", async () => {
    const fake = await startSalesforceFake(generateCrm("salesforce", { contacts: 1200 }), {
      clientId: "3MVG9-key",
      clientSecret: "secret-1234567890",
      batchSize: 500,
    });
    fakes.push(fake);
    const o = await createOwnerWorkspace(prisma);
    await expect(
      connectCrm(prisma, {
        workspaceId: o.workspaceId,
        input: { kind: "salesforce", myDomainUrl: fake.url, clientId: "3MVG9-key", clientSecret: "wrong-secret" },
        actor: owner,
      }),
    ).rejects.toMatchObject({
      message: expect.stringContaining("did not accept this consumer key and secret"),
    });
    const { connectionId, sync } = await connectCrm(prisma, {
      workspaceId: o.workspaceId,
      input: { kind: "salesforce", myDomainUrl: fake.url, clientId: "3MVG9-key", clientSecret: "secret-1234567890" },
      actor: owner,
    });
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId })).toEqual(["succeeded"]);
    const done = await getSync(prisma, { workspaceId: o.workspaceId, syncId: sync.syncId });
    expect(done.counts).toMatchObject({
      companies: { created: 240 },
      contacts: { created: 1200 },
      deals: { read: 120 },
      lists: { read: 2 },
      suppressions: { added: 24 },
    });
    expect(fake.requests.filter((r) => /\/query\/01g/.test(r.url)).length).toBeGreaterThanOrEqual(2);
    const outcome = await prisma.accountOutcome.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, kind: "opportunity_created" },
    });
    expect(outcome.sourceDetail).toMatch(/^Salesforce opportunity 006/);

    fake.data.contacts[5].lastName = "Renamed";
    fake.data.contacts[5].modifiedAt = Date.now();
    // A new opportunity, won at once.
    const wonId = fakeId("salesforce", "006", 9001);
    fake.data.deals.push({
      id: wonId,
      name: "Expansion",
      companyId: fake.data.companies[3].id,
      amount: 4200,
      createdAt: Date.now() - 60_000,
      closedAt: Date.now(),
      won: true,
      modifiedAt: Date.now(),
    });
    const next = await startSync(prisma, { workspaceId: o.workspaceId, connectionId, trigger: "owner", actor: owner });
    await drainJobs(prisma, { workspaceId: o.workspaceId });
    const incremental = await getSync(prisma, { workspaceId: o.workspaceId, syncId: next.view.syncId });
    expect(incremental).toMatchObject({
      mode: "incremental",
      counts: { contacts: { updated: 1, created: 0 }, companies: { created: 0, updated: 0 } },
    });
    const won = await prisma.accountOutcome.findMany({
      where: { workspaceId: o.workspaceId, externalId: wonId },
      select: { kind: true, amountCents: true, account: { select: { crmId: true } } },
    });
    expect(won.sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: "closed_won", amountCents: 420_000n, account: { crmId: fake.data.companies[3].id } },
      { kind: "opportunity_created", amountCents: 420_000n, account: { crmId: fake.data.companies[3].id } },
      { kind: "pipeline_dollars", amountCents: 420_000n, account: { crmId: fake.data.companies[3].id } },
    ]);
    expect(incremental.counts.contacts.read).toBeLessThanOrEqual(4);
    expect(await prisma.contact.count({ where: { workspaceId: o.workspaceId, lastName: "Renamed" } })).toBe(1);
  }, 60_000);
});

describe("HubSpot and Salesforce in one workspace", () => {
  it("one contact and one account per person and company; each CRM's lists and deals find them through its own links, and syncing again takes nothing from the other", async () => {
    const { fake: hs, o } = await hubspotWorkspace(300);
    const sf = await startSalesforceFake(generateCrm("salesforce", { contacts: 300 }), {
      clientId: "3MVG9-key",
      clientSecret: "secret-1234567890",
      batchSize: 200,
    });
    fakes.push(sf);
    const ws = o.workspaceId;
    const hubspot = await connectHubSpot(ws);
    await drainJobs(prisma, { workspaceId: ws });
    const salesforce = await connectCrm(prisma, {
      workspaceId: ws,
      input: { kind: "salesforce", myDomainUrl: sf.url, clientId: "3MVG9-key", clientSecret: "secret-1234567890" },
      actor: owner,
    });
    expect(await drainJobs(prisma, { workspaceId: ws })).toEqual(["succeeded"]);

    // The same people (same emails) and companies (same domains): nothing new from the second CRM.
    expect((await getSync(prisma, { workspaceId: ws, syncId: salesforce.sync.syncId })).counts).toMatchObject({
      contacts: { created: 0, errors: 0 },
      companies: { created: 0 },
    });
    expect(await prisma.contact.count({ where: { workspaceId: ws } })).toBe(300);
    expect(await prisma.account.count({ where: { workspaceId: ws } })).toBe(60);
    const shared = (i: number) =>
      prisma.contact.findFirstOrThrow({
        where: { workspaceId: ws, email: hs.data.contacts[i].email },
        include: { account: true },
      });
    // Each keeps the first CRM's id; the account is the same company in both.
    expect(await shared(4)).toMatchObject({
      crmId: hs.data.contacts[4].id,
      account: { crmId: hs.data.companies[4].id, domain: "company5.example" },
    });

    const memberships = async () => {
      const audiences = await prisma.audience.findMany({
        where: { workspaceId: ws, source: "crm" },
        include: { _count: { select: { members: true } } },
        orderBy: { name: "asc" },
      });
      return audiences.map((a) => [a.name, a._count.members]);
    };
    const expected = [
      ["Event attendees", 25],
      ["Event attendees (Salesforce)", 25],
      ["Q4 target accounts", 75],
      ["Q4 target accounts (Salesforce)", 75],
    ];
    expect(await memberships()).toEqual(expected);
    // Salesforce's opportunities are outcomes of the same accounts HubSpot's deals are.
    const sfOutcomes = await prisma.accountOutcome.findMany({
      where: { workspaceId: ws, crmConnectionId: salesforce.connectionId, kind: "opportunity_created" },
      include: { account: true },
    });
    expect(sfOutcomes).toHaveLength(30);
    expect(sfOutcomes.every((x) => x.account.crmId?.startsWith("9"))).toBe(true);

    // Salesforce changes a shared person's email, HubSpot renames them: one contact still, in all four audiences.
    sf.data.contacts[4].email = "renamed@company5.example";
    sf.data.contacts[4].modifiedAt = Date.now();
    hs.data.contacts[4].lastName = "Okafor-Renamed";
    hs.data.contacts[4].modifiedAt = Date.now();
    const id = (await shared(4)).id;
    for (const connectionId of [salesforce.connectionId, hubspot.connectionId, salesforce.connectionId]) {
      const next = await startSync(prisma, { workspaceId: ws, connectionId, trigger: "owner", actor: owner });
      expect(await drainJobs(prisma, { workspaceId: ws })).toEqual(["succeeded"]);
      const counts = (await getSync(prisma, { workspaceId: ws, syncId: next.view.syncId })).counts;
      expect(counts).toMatchObject({
        contacts: { created: 0 },
        companies: { created: 0 },
        audienceMembers: { added: 0, removed: 0 },
      });
    }
    expect(await prisma.contact.count({ where: { workspaceId: ws } })).toBe(300);
    // Each CRM's change stands: Salesforce, read again in its overlap window, still says the old last
    // name it said before, so HubSpot's rename (a real change) is not undone (field provenance).
    expect(await prisma.contact.findUniqueOrThrow({ where: { id } })).toMatchObject({
      email: "renamed@company5.example",
      lastName: "Okafor-Renamed",
      crmId: hs.data.contacts[4].id,
    });
    expect(await prisma.audienceMember.count({ where: { contactId: id } })).toBe(4);
    expect(await memberships()).toEqual(expected);
  }, 120_000);
});
