import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { callerFor, createAudience, createOwnerWorkspace } from "@/test/factories";

/** Which audit answers for a campaign: one run is enough when it judged the campaign's mail alike. */

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

async function setUp(opts: { torontoToo?: boolean; format?: "postcard" | "gift" } = {}) {
  const o = await createOwnerWorkspace(prisma, { plan: "paid" });
  const caller = await callerFor(prisma, o.user);
  const { audience } = await createAudience(prisma, o.workspaceId, { accounts: 2, perAccount: 2 });
  if (opts.torontoToo) {
    const toronto = await prisma.contact.create({
      data: {
        workspaceId: o.workspaceId,
        firstName: "Maya",
        lastName: "Singh",
        addressLine1: "100 King St W",
        city: "Toronto",
        region: "ON",
        postalCode: "M5X 1A9",
        country: "CA",
      },
    });
    await prisma.audienceMember.create({
      data: { audienceId: audience.id, contactId: toronto.id, workspaceId: o.workspaceId },
    });
  }
  const campaign = await prisma.campaign.create({
    data: { workspaceId: o.workspaceId, name: "Spring", format: opts.format ?? "postcard", audienceId: audience.id },
  });
  const p = { workspaceId: o.workspaceId, campaignId: campaign.id };
  const mailability = async () => (await caller.campaign.readiness(p)).items.find((i) => i.key === "mailability")!;
  /** The owner approves a printer for US postcards and gives it to the campaign, as the printing settings do. */
  const approveUsPrinter = async () => {
    const contract = await prisma.fulfilmentContract.create({
      data: {
        workspaceId: o.workspaceId,
        name: "Sandbox postcards",
        format: "postcard",
        size: "6x9",
        unitCostCents: 95,
        countries: ["US"],
        status: "approved",
      },
    });
    await caller.campaign.update({ ...p, draft: { fulfilmentContractId: contract.id } });
  };
  return { o, caller, audience, campaign, p, mailability, approveUsPrinter };
}

describe("the audit a campaign goes live on", () => {
  it("the audience's own fresh audit counts for a postcard campaign, and a printer for the countries its contacts are in changes nothing", async () => {
    const { caller, audience, campaign, p, mailability, approveUsPrinter } = await setUp();
    const run = await caller.mailability.run({ workspaceId: p.workspaceId, audienceId: audience.id, verify: false });
    expect(run.status).toBe("succeeded");
    const answer = await caller.mailability.forCampaign(p);
    expect(answer).toMatchObject({ audit: { auditId: run.auditId, campaignId: null }, stale: null, ownRun: false });
    expect(await mailability()).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^0% unmailable at the audience's audit of \d{4}-\d\d-\d\d\.$/),
      fix: `/audits/${run.auditId}`,
    });
    // Approving a printer for the US, where every contact is: the audit still describes what would be mailed.
    await approveUsPrinter();
    expect(await caller.mailability.forCampaign(p)).toMatchObject({ audit: { auditId: run.auditId }, stale: null });
    expect((await mailability()).ok).toBe(true);
    // Nothing was run again for the campaign.
    expect(await prisma.mailabilityAudit.count({ where: { campaignId: campaign.id } })).toBe(0);
  });

  it("approving a printer that leaves out a country some contacts are in makes the audit out of date, and says why", async () => {
    const { caller, audience, p, mailability, approveUsPrinter } = await setUp({ torontoToo: true });
    const run = await caller.mailability.run({ workspaceId: p.workspaceId, audienceId: audience.id, verify: false });
    expect((await mailability()).ok).toBe(true);
    await approveUsPrinter();
    const why = "the printers' countries changed since: no approved printer mails to CA (1 contact) now.";
    expect(await caller.mailability.forCampaign(p)).toMatchObject({ audit: { auditId: run.auditId }, stale: why });
    expect(await mailability()).toMatchObject({
      ok: false,
      detail: expect.stringContaining(`is out of date: ${why} Run it again.`),
      fix: `/campaigns/${p.campaignId}#audit`,
    });
    // The campaign's own run then answers for it, judged with its printer's countries.
    const own = await caller.mailability.run({ ...p, verify: false });
    expect(await caller.mailability.forCampaign(p)).toMatchObject({
      audit: { auditId: own.auditId, unmailable: 1 },
      stale: null,
      ownRun: true,
    });
    expect(await mailability()).toMatchObject({ ok: true, fix: `/audits/${own.auditId}` });
  });

  it("an audience's audit does not count for a gift campaign, whose PO boxes stop mail an audience audit only notes", async () => {
    const { caller, audience, p, mailability } = await setUp({ format: "gift" });
    await caller.mailability.run({ workspaceId: p.workspaceId, audienceId: audience.id, verify: false });
    expect(await caller.mailability.forCampaign(p)).toEqual({ audit: null, stale: null, ownRun: false });
    expect((await mailability()).detail).toMatch(/^No mailability audit for this campaign yet/);
  });

  it("an audit of the campaign's former audience no longer counts for it", async () => {
    const { o, caller, p } = await setUp();
    await caller.mailability.run({ ...p, verify: false });
    const { audience: other } = await createAudience(prisma, o.workspaceId, { accounts: 1, perAccount: 1 });
    await caller.campaign.update({ ...p, draft: { audienceId: other.id } });
    expect(await caller.mailability.forCampaign(p)).toEqual({ audit: null, stale: null, ownRun: false });
    // A campaign of no workspace of the caller's is not found.
    await expect(caller.mailability.forCampaign({ ...p, campaignId: "cmp_missing" })).rejects.toThrow(
      "No such campaign in this workspace; campaigns_list shows them.",
    );
  });
});
