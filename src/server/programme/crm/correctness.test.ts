import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { generateCrm } from "@/test/crm-fakes/data";
import { startHubSpotFake } from "@/test/crm-fakes/hubspot-fake";
import { startSalesforceFake } from "@/test/crm-fakes/salesforce-fake";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { drainJobs } from "@/test/jobs";
import { queueDueSyncs } from "./schedule";
import { connectCrm, disconnectCrm, getSync, listConnections, listIssues, setDealFilter, startSync } from "./service";

/** The CRM correctness: reconnecting, revoked credentials, Primary companies, deletions, which deals count, Salesforce's limits. */
let prisma: PrismaClient;
const fakes: { close(): Promise<void> }[] = [];
const owner = { kind: "user" as const, id: "usr_test", label: "owner@example.test" };
const TOKEN = "pat-na1-11111111-2222";

beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
  process.env.CRM_TEST_ALLOW_LOCAL_URLS = "1";
  process.env.CRM_ENCRYPTION_KEY ??= Buffer.alloc(32, 7).toString("base64");
});
afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

async function hubspot(contacts: number) {
  const fake = await startHubSpotFake(generateCrm("hubspot", { contacts }), { token: TOKEN });
  fakes.push(fake);
  process.env.CRM_TEST_HUBSPOT_BASE_URL = fake.url;
  const o = await createOwnerWorkspace(prisma);
  const connect = (accessToken = TOKEN) =>
    connectCrm(prisma, { workspaceId: o.workspaceId, input: { kind: "hubspot", accessToken }, actor: owner });
  const sync = async (connectionId: string) => {
    const { view } = await startSync(prisma, {
      workspaceId: o.workspaceId,
      connectionId,
      trigger: "owner",
      actor: owner,
    });
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId })).toEqual(["succeeded"]);
    return getSync(prisma, { workspaceId: o.workspaceId, syncId: view.syncId });
  };
  return { fake, o, connect, sync };
}

describe("connecting again", () => {
  it("with a rotated token, and after a disconnect: the same connection, its links and history kept", async () => {
    const { fake, o, connect } = await hubspot(20);
    const first = await connect();
    await drainJobs(prisma, { workspaceId: o.workspaceId });
    const rotated = fake.revokeToken("pat-na1-rotated-3333");
    const again = await connect(rotated);
    expect(again.connectionId).toBe(first.connectionId);
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId })).toEqual(["succeeded"]);
    await disconnectCrm(prisma, { workspaceId: o.workspaceId, connectionId: first.connectionId, actor: owner });
    const third = await connect(rotated);
    expect(third.connectionId).toBe(first.connectionId);
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId })).toEqual(["succeeded"]);
    expect(await prisma.crmConnection.count({ where: { workspaceId: o.workspaceId } })).toBe(1);
    expect(await prisma.contact.count({ where: { workspaceId: o.workspaceId } })).toBe(20);
    expect(
      await prisma.crmRecordLink.count({ where: { connectionId: first.connectionId, objectType: "contact" } }),
    ).toBe(20);
    const log = await prisma.auditLogEntry.findMany({
      where: { workspaceId: o.workspaceId, action: { in: ["crm.connected", "crm.reconnected"] } },
      orderBy: { createdAt: "asc" },
    });
    expect(log.map((l) => l.action)).toEqual(["crm.connected", "crm.reconnected", "crm.reconnected"]);
  }, 120_000);
});

describe("a revoked token", () => {
  it("marks the connection needs_reconnect, stops its schedule, tells the owner; connecting again clears it", async () => {
    const { fake, o, connect } = await hubspot(10);
    const { connectionId } = await connect();
    await drainJobs(prisma, { workspaceId: o.workspaceId });
    fake.revokeToken();
    await prisma.crmConnection.update({
      where: { id: connectionId },
      data: { nextSyncAt: new Date(Date.now() - 1000) },
    });
    expect(await queueDueSyncs(prisma)).toHaveLength(1);
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId })).toEqual(["failed"]);
    const [c] = await listConnections(prisma, { workspaceId: o.workspaceId });
    expect(c).toMatchObject({
      status: "needs_reconnect",
      nextSyncAt: null,
      attention: expect.stringContaining("HubSpot did not accept this access token"),
    });
    expect(c.lastSync?.job.error).toContain("needs reconnecting");
    const entry = await prisma.auditLogEntry.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, action: "crm.needs_reconnect" },
    });
    expect(entry).toMatchObject({ actorKind: "system", targetId: connectionId });
    // The schedule no longer tries; a sync is refused with what to do.
    await prisma.crmConnection.update({
      where: { id: connectionId },
      data: { nextSyncAt: new Date(Date.now() - 1000) },
    });
    expect(await queueDueSyncs(prisma)).toEqual([]);
    await expect(
      startSync(prisma, { workspaceId: o.workspaceId, connectionId, trigger: "agent", actor: owner }),
    ).rejects.toMatchObject({ code: "invalid_state", message: expect.stringContaining("needs reconnecting") });
    expect(await prisma.crmSync.count({ where: { connectionId } })).toBe(2);

    await connect(fake.revokeToken("pat-na1-new-4444"));
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId })).toEqual(["succeeded"]);
    const [back] = await listConnections(prisma, { workspaceId: o.workspaceId });
    expect(back).toMatchObject({ status: "connected", attention: null, nextSyncAt: expect.any(String) });
  }, 120_000);
});

describe("records deleted in the CRM", () => {
  it("incremental: an archived contact is kept but unlinked and out of the list audience; an archived deal loses its outcomes; a full sync finds what vanished", async () => {
    const { fake, o, connect, sync } = await hubspot(40);
    const { connectionId } = await connect();
    await drainJobs(prisma, { workspaceId: o.workspaceId });
    const person = fake.data.contacts[0]; // in both lists
    const local = await prisma.contact.findFirstOrThrow({ where: { workspaceId: o.workspaceId, crmId: person.id } });
    expect(await prisma.audienceMember.count({ where: { contactId: local.id } })).toBe(2);
    const deal = fake.data.deals[0];
    expect(await prisma.accountOutcome.count({ where: { workspaceId: o.workspaceId, externalId: deal.id } })).toBe(3);
    person.deletedAt = Date.now();
    deal.deletedAt = Date.now();

    const incremental = await sync(connectionId);
    expect(incremental).toMatchObject({
      mode: "incremental",
      counts: { deleted: { contacts: 1, companies: 0, deals: 1 } },
    });
    expect(await prisma.contact.findUnique({ where: { id: local.id } })).not.toBeNull();
    expect(await prisma.audienceMember.count({ where: { contactId: local.id } })).toBe(0);
    expect(
      await prisma.crmRecordLink.count({ where: { connectionId, objectType: "contact", externalId: person.id } }),
    ).toBe(0);
    expect(await prisma.accountOutcome.count({ where: { workspaceId: o.workspaceId, externalId: deal.id } })).toBe(0);

    // Gone beyond the archive (purged): the daily full sync reconciles.
    const purged = fake.data.contacts.splice(5, 1)[0];
    const purgedLocal = await prisma.contact.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, crmId: purged.id },
    });
    await prisma.job.updateMany({
      where: { workspaceId: o.workspaceId },
      data: { finishedAt: new Date(Date.now() - 25 * 3_600_000) },
    });
    const full = await sync(connectionId);
    expect(full).toMatchObject({
      mode: "full",
      counts: { deleted: { contacts: 1, companies: 0, deals: 0 }, contacts: { read: 38 } },
    });
    expect(
      await prisma.crmRecordLink.count({ where: { connectionId, objectType: "contact", localId: purgedLocal.id } }),
    ).toBe(0);
    expect(await prisma.contact.count({ where: { workspaceId: o.workspaceId } })).toBe(40);
  }, 120_000);
});

describe("which deals count", () => {
  it("only the chosen pipelines and stages; a deal in another currency counts without its amount", async () => {
    const { fake, o, connect, sync } = await hubspot(60);
    const { connectionId } = await connect();
    await drainJobs(prisma, { workspaceId: o.workspaceId });
    const won = fake.data.deals.filter((d) => d.won).length;
    expect(
      await prisma.accountOutcome.count({ where: { workspaceId: o.workspaceId, kind: "opportunity_created" } }),
    ).toBe(fake.data.deals.length);

    await expect(
      setDealFilter(prisma, {
        workspaceId: o.workspaceId,
        connectionId,
        filter: { pipelines: null, stages: ["closedwon"] },
        actor: owner,
      }),
    ).resolves.toMatchObject({ dealFilter: { pipelines: null, stages: ["closedwon"] } });
    const eur = fake.data.deals.find((d) => d.won)!;
    eur.currency = "EUR";
    const done = await sync(connectionId);
    expect(done.mode).toBe("full");
    expect(done.counts.deals).toMatchObject({ read: fake.data.deals.length, excluded: fake.data.deals.length - won });
    expect(
      await prisma.accountOutcome.count({ where: { workspaceId: o.workspaceId, kind: "opportunity_created" } }),
    ).toBe(won);
    const eurOutcomes = await prisma.accountOutcome.findMany({
      where: { workspaceId: o.workspaceId, externalId: eur.id },
      select: { kind: true, amountCents: true },
    });
    expect(eurOutcomes.sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: "closed_won", amountCents: 0n },
      { kind: "opportunity_created", amountCents: null },
    ]);
    const warnings = await listIssues(prisma, {
      workspaceId: o.workspaceId,
      syncId: done.syncId,
      severity: "warning",
      take: 100,
    });
    expect(warnings.issues.map((i) => i.message)).toContain(
      `deal ${eur.id}: its amount is in EUR, and amounts here are in US dollars; counted without its amount`,
    );
  }, 120_000);
});

describe("Salesforce's concurrent-request limit", () => {
  it("403 REQUEST_LIMIT_EXCEEDED (ConcurrentPerOrgLongTxn) is waited out and the sync finishes; an org without Campaigns syncs with lists off", async () => {
    const fake = await startSalesforceFake(generateCrm("salesforce", { contacts: 50 }), {
      clientId: "3MVG9-key",
      clientSecret: "secret-1234567890",
      hiddenObjects: ["Campaign", "CampaignMember"],
    });
    fakes.push(fake);
    const o = await createOwnerWorkspace(prisma);
    const { connectionId, sync } = await connectCrm(prisma, {
      workspaceId: o.workspaceId,
      input: { kind: "salesforce", myDomainUrl: fake.url, clientId: "3MVG9-key", clientSecret: "secret-1234567890" },
      actor: owner,
    });
    // The first answers the sync's estimate (which goes on without one), the second its first page, which waits and retries.
    fake.limitNext(2, "concurrent");
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId })).toEqual(["succeeded"]);
    const done = await getSync(prisma, { workspaceId: o.workspaceId, syncId: sync.syncId });
    expect(done.counts).toMatchObject({ rateLimitWaits: 1, contacts: { created: 50 }, lists: { read: 0 } });
    expect(fake.requests.filter((r) => r.status === 403)).toHaveLength(2);
    const [c] = await listConnections(prisma, { workspaceId: o.workspaceId });
    expect(c).toMatchObject({ connectionId, status: "connected", listsEnabled: false });
  }, 60_000);
});
