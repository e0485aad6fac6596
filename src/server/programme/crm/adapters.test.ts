import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCrm } from "@/test/crm-fakes/data";
import { startHubSpotFake } from "@/test/crm-fakes/hubspot-fake";
import { startSalesforceFake } from "@/test/crm-fakes/salesforce-fake";
import { CrmAccessError, CrmQuotaExceeded, CrmRateLimited } from "./adapter";
import { hubspotAdapter } from "./hubspot";
import { salesforceAdapter } from "./salesforce";
import { salesforceOrigin } from "./urls";

/** The two connectors on their official clients, against the local fakes. */
const fakes: { close(): Promise<void> }[] = [];
beforeAll(() => {
  process.env.CRM_TEST_ALLOW_LOCAL_URLS = "1";
});
afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

async function hubspot(size = 250, scopes?: string[]) {
  const fake = await startHubSpotFake(generateCrm("hubspot", { contacts: size }), { token: "pat-na1-good", scopes });
  fakes.push(fake);
  process.env.CRM_TEST_HUBSPOT_BASE_URL = fake.url;
  return fake;
}

async function salesforce(size = 250, opts: { hiddenObjects?: string[]; noRunAsUser?: boolean } = {}) {
  const fake = await startSalesforceFake(generateCrm("salesforce", { contacts: size }), {
    clientId: "key",
    clientSecret: "secret",
    batchSize: 100,
    ...opts,
  });
  fakes.push(fake);
  return fake;
}

describe("HubSpot", () => {
  it("verifies a token with every scope, then pages through contacts with their companies", async () => {
    const fake = await hubspot(250);
    const a = hubspotAdapter({ accessToken: "pat-na1-good" });
    expect(await a.verify()).toEqual({
      externalAccountId: "4711",
      name: "HubSpot portal 4711",
      listsReadable: true,
      currency: "USD",
    });
    expect(await a.count("contacts", null)).toBe(250);
    const first = await a.page("contacts", null, null);
    expect(first.records).toHaveLength(100);
    expect(first.records[0]).toMatchObject({
      id: fake.data.contacts[0].id,
      firstName: "Ada",
      email: fake.data.contacts[0].email,
      companyId: fake.data.contacts[0].companyId,
      country: "United States",
    });
    const third = await a.page("contacts", null, (await a.page("contacts", null, first.next)).next);
    expect(third.records).toHaveLength(50);
    expect(third.next).toBeNull();
    const lists = await a.lists();
    expect(lists.map((l) => l.name)).toEqual(["Q4 target accounts", "Event attendees"]);
    expect((await a.listMembers(lists[1].id, null)).records).toHaveLength(25);
  });

  it("reads only what changed since a time (search), with the companies from the v4 associations", async () => {
    const fake = await hubspot(50);
    const a = hubspotAdapter({ accessToken: "pat-na1-good" });
    const since = new Date();
    fake.data.contacts[7].modifiedAt = Date.now() + 1000;
    const page = await a.page("contacts", since, null);
    expect(page.records.map((r) => r.id)).toEqual([fake.data.contacts[7].id]);
    expect(page.records[0].companyId).toBe(fake.data.contacts[7].companyId);
  });

  it("names every missing scope, and says so clearly for a wrong token", async () => {
    await hubspot(5, ["crm.objects.contacts.read", "crm.objects.companies.read"]);
    await expect(hubspotAdapter({ accessToken: "pat-na1-good" }).verify()).rejects.toThrow(
      "The private app lacks the crm.objects.deals.read, crm.lists.read scopes. Add them in HubSpot (Settings → Integrations → Private apps → your app → Scopes), then paste the token again.",
    );
    await expect(hubspotAdapter({ accessToken: "pat-na1-wrong" }).verify()).rejects.toThrow(
      /HubSpot did not accept this access token/,
    );
  });

  it("reads more than search's 10,000-result window by starting again from the last modified time read", async () => {
    const fake = await hubspot(10_150);
    const a = hubspotAdapter({ accessToken: "pat-na1-good" });
    const since = new Date(Date.now() - 1000 * 86_400_000);
    const ids = new Set<string>();
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { records: { id: string }[]; next: string | null } = await a.page("contacts", since, cursor);
      for (const r of page.records) ids.add(r.id);
      cursor = page.next;
      pages++;
    } while (cursor);
    expect(ids.size).toBe(10_150);
    expect(pages).toBeGreaterThan(101);
    expect(fake.requests.some((r) => r.status === undefined && r.url === "/crm/v3/objects/contacts/search")).toBe(true);
  }, 60_000);

  it("turns a 429 into CrmRateLimited with the Retry-After", async () => {
    const fake = await hubspot(5);
    fake.rateLimitNext(1, 3);
    const error = await hubspotAdapter({ accessToken: "pat-na1-good" })
      .page("contacts", null, null)
      .catch((e) => e);
    expect(error).toBeInstanceOf(CrmRateLimited);
    expect(error.retryAfterMs).toBe(3000);
  });
});

describe("Salesforce", () => {
  it("authorizes with client credentials and pages with nextRecordsUrl", async () => {
    const fake = await salesforce(250);
    const a = salesforceAdapter({ origin: fake.url, clientId: "key", clientSecret: "secret" });
    expect(await a.verify()).toMatchObject({ externalAccountId: "00DFa000000Fake1AAA" });
    expect(await a.count("contacts", null)).toBe(250);
    const first = await a.page("contacts", null, null);
    expect(first.records).toHaveLength(100);
    expect(first.next).toMatch(/^01g\w+-100$/);
    expect(first.records[0]).toMatchObject({
      id: fake.data.contacts[0].id,
      addressLine1: "100 Main St",
      companyId: fake.data.contacts[0].companyId,
    });
    const second = await a.page("contacts", null, first.next);
    const third = await a.page("contacts", null, second.next);
    expect(third.records).toHaveLength(50);
    expect(third.next).toBeNull();
    const since = new Date();
    fake.data.deals[2].modifiedAt = Date.now() + 1000;
    expect((await a.page("deals", since, null)).records.map((d) => d.id)).toEqual([fake.data.deals[2].id]);
    const lists = await a.lists();
    expect(lists).toHaveLength(2);
  });

  it("explains wrong credentials, a missing Run As user and an object it cannot read", async () => {
    const fake = await salesforce(5);
    await expect(
      salesforceAdapter({ origin: fake.url, clientId: "nope", clientSecret: "secret" }).verify(),
    ).rejects.toThrow(/does not know this consumer key/);
    await expect(
      salesforceAdapter({ origin: fake.url, clientId: "key", clientSecret: "nope" }).verify(),
    ).rejects.toThrow(/did not accept this consumer key and secret/);
    const noUser = await salesforce(5, { noRunAsUser: true });
    await expect(
      salesforceAdapter({ origin: noUser.url, clientId: "key", clientSecret: "secret" }).verify(),
    ).rejects.toThrow(/Enable Client Credentials Flow and choose a Run As user/);
    const hidden = await salesforce(5, { hiddenObjects: ["Opportunity"] });
    const error = await salesforceAdapter({ origin: hidden.url, clientId: "key", clientSecret: "secret" })
      .verify()
      .catch((e) => e);
    expect(error).toBeInstanceOf(CrmAccessError);
    expect(error.message).toBe(
      "The connected app's Run As user cannot read Opportunities: give it the Read permission on Opportunities (profile or permission set).",
    );
  });
});

describe("Salesforce limits", () => {
  it("tells the concurrent-request limit (403, wait and retry) from the daily allowance (403, stop), and leaves retrying to the sync", async () => {
    const fake = await salesforce(5);
    const a = salesforceAdapter({ origin: fake.url, clientId: "key", clientSecret: "secret" });
    await a.verify();
    fake.limitNext(1, "concurrent");
    const before = fake.requests.length;
    const concurrent = await a.page("contacts", null, null).catch((e) => e);
    expect(concurrent).toBeInstanceOf(CrmRateLimited);
    expect(concurrent.message).toContain("ConcurrentPerOrgLongTxn");
    // jsforce did not retry it behind the sync's back.
    expect(fake.requests.length - before).toBe(1);
    fake.limitNext(1, "daily");
    expect(await a.page("contacts", null, null).catch((e) => e)).toBeInstanceOf(CrmQuotaExceeded);
    fake.rateLimitNext(1, 7);
    expect(await a.page("contacts", null, null).catch((e) => e)).toBeInstanceOf(CrmRateLimited);
    expect((await a.page("contacts", null, null)).records).toHaveLength(5);
  });
});

describe("what the vendors say about associations, deletions, pipelines and currencies", () => {
  it("HubSpot: the company labelled Primary, not the first, in full and incremental reads", async () => {
    const fake = await hubspot(30);
    const a = hubspotAdapter({ accessToken: "pat-na1-good" });
    const person = fake.data.contacts[3];
    expect(person.otherCompanyIds?.length).toBe(1);
    const full = (await a.page("contacts", null, null)).records.find((r) => r.id === person.id)!;
    expect(full.companyId).toBe(person.companyId);
    const since = new Date();
    person.modifiedAt = Date.now() + 1000;
    fake.data.deals[0].otherCompanyIds = [fake.data.companies[5].id];
    fake.data.deals[0].modifiedAt = Date.now() + 1000;
    expect((await a.page("contacts", since, null)).records.map((r) => [r.id, r.companyId])).toEqual([
      [person.id, person.companyId],
    ]);
    expect((await a.page("deals", since, null)).records.map((r) => [r.id, r.companyId])).toEqual([
      [fake.data.deals[0].id, fake.data.deals[0].companyId],
    ]);
  });

  it("HubSpot: archived records, the deal pipelines and the deal's currency", async () => {
    const fake = await hubspot(30);
    const a = hubspotAdapter({ accessToken: "pat-na1-good" });
    const since = new Date(Date.now() - 1000);
    fake.data.contacts[2].deletedAt = Date.now();
    fake.data.contacts[4].deletedAt = Date.now() - 86_400_000;
    expect((await a.deleted("contacts", since, null)).records.map((r) => r.id)).toEqual([fake.data.contacts[2].id]);
    expect(await a.count("contacts", null)).toBe(28);
    const pipelines = await a.pipelines();
    expect(pipelines.map((p) => [p.id, p.stages.map((s) => s.id)])).toEqual([
      ["default", ["appointmentscheduled", "closedwon", "closedlost"]],
      ["renewals", ["renewal-open", "renewal-won"]],
    ]);
    fake.data.deals[1].currency = "EUR";
    const deals = (await a.page("deals", null, null)).records;
    expect(deals[1]).toMatchObject({ currency: "EUR", pipeline: "default", stage: "appointmentscheduled" });
    expect(deals[0]).toMatchObject({ currency: null, stage: "closedwon" });
  });

  it("Salesforce: connects without Campaigns (lists off), finds deleted records with queryAll, reads stages and currencies", async () => {
    const fake = await salesforce(20, { hiddenObjects: ["Campaign"] });
    const a = salesforceAdapter({ origin: fake.url, clientId: "key", clientSecret: "secret" });
    expect(await a.verify()).toMatchObject({ listsReadable: false, currency: "USD" });
    const since = new Date(Date.now() - 1000);
    fake.data.contacts[1].deletedAt = Date.now();
    expect((await a.deleted("contacts", since, null)).records.map((r) => r.id)).toEqual([fake.data.contacts[1].id]);
    expect(fake.requests.some((r) => r.url.includes("/queryAll?"))).toBe(true);
    expect((await a.page("contacts", null, null)).records).toHaveLength(19);
    expect((await a.pipelines())[0]).toMatchObject({
      id: "opportunities",
      stages: expect.arrayContaining([{ id: "Closed Won", label: "Closed Won" }]),
    });
    const multi = await startSalesforceFake(generateCrm("salesforce", { contacts: 30 }), {
      clientId: "key",
      clientSecret: "secret",
      multiCurrency: true,
      currency: "USD",
    });
    fakes.push(multi);
    multi.data.deals[0].currency = "GBP";
    const deals = (
      await salesforceAdapter({ origin: multi.url, clientId: "key", clientSecret: "secret" }).page("deals", null, null)
    ).records;
    expect(Object.fromEntries(deals.map((d) => [d.id, d.currency]))).toEqual(
      Object.fromEntries(multi.data.deals.map((d, i) => [d.id, i === 0 ? "GBP" : "USD"])),
    );
  });
});

describe("the Salesforce address a person types", () => {
  it("is accepted only on Salesforce's My Domain hosts", () => {
    const env = {};
    expect(salesforceOrigin("acme.my.salesforce.com", env)).toEqual({ origin: "https://acme.my.salesforce.com" });
    expect(salesforceOrigin("https://acme--uat.sandbox.my.salesforce.com/lightning/page", env)).toEqual({
      origin: "https://acme--uat.sandbox.my.salesforce.com",
    });
    expect(salesforceOrigin("https://agency.my.salesforce.mil", env)).toEqual({
      origin: "https://agency.my.salesforce.mil",
    });
    for (const bad of [
      "http://acme.my.salesforce.com",
      "https://acme.my.salesforce.com.evil.example",
      "https://169.254.169.254",
      "https://localhost:3000",
      "https://user:pw@acme.my.salesforce.com",
      "https://acme.my.salesforce.com:8443",
      "https://my.salesforce.com",
      "file:///etc/passwd",
    ]) {
      expect(salesforceOrigin(bad, env), bad).toHaveProperty("error");
    }
    expect(salesforceOrigin("https://login.salesforce.com", env)).toMatchObject({
      error: expect.stringContaining("My Domain"),
    });
    expect(salesforceOrigin("http://127.0.0.1:4000", env)).toHaveProperty("error");
    expect(salesforceOrigin("http://127.0.0.1:4000", { CRM_TEST_ALLOW_LOCAL_URLS: "1" })).toEqual({
      origin: "http://127.0.0.1:4000",
    });
  });
});
