import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { createAudience, createOwnerWorkspace } from "@/test/factories";
import { acceptEntryEvent } from "@/server/programme/entry/service";
import { drain, testClock } from "@/test/lifecycle-fixtures";
import { ZCampaignDraft } from "./schema";
import { isLoopbackUrl, publicAddressProblem } from "./public-address";
import { campaignReadiness } from "./readiness";
import {
  changeCampaignState,
  createDraft,
  getCampaignDetail,
  goLive,
  listCampaignEvents,
  setBudget,
  updateDraft,
} from "./service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

async function draftFixture() {
  const o = await createOwnerWorkspace(prisma);
  const { audience, contacts } = await createAudience(prisma, o.workspaceId, { accounts: 10, perAccount: 1 });
  const contract = await prisma.fulfilmentContract.create({
    data: { workspaceId: o.workspaceId, name: "Sandbox", format: "postcard", unitCostCents: 120, status: "approved" },
  });
  const actor = { kind: "user" as const, id: o.user.id, label: o.user.email };
  const draft = ZCampaignDraft.parse({
    name: "Q1 trial follow-up",
    format: "postcard",
    audienceId: audience.id,
    acceptsApiEvents: true,
    holdoutShare: 0.2,
    frequencyCapContact: 1,
    frequencyCapAccount: null,
    frequencyWindowDays: 30,
    reviewGate: "none",
    budgetCents: 10_000,
    fulfilmentContractId: contract.id,
    destinationUrl: "https://acme.example/hello",
    headline: "{{firstName}}, welcome",
    bodyTemplate: "Hi {{firstName}} at {{company}}",
    signOff: "Sam",
    endsAt: null,
  });
  const campaign = await createDraft(prisma, { workspaceId: o.workspaceId, input: draft, actor });
  return { ...o, audience, contacts, contract, actor, campaign, draft };
}

describe("campaigns", () => {
  it("validates copy merge fields and references", async () => {
    const bad = ZCampaignDraft.safeParse({ ...(await draftFixture()).draft, bodyTemplate: "Hi {{nickname}}" });
    expect(bad.error!.issues[0].message).toBe(
      "The message uses unknown merge fields: {{nickname}}. Known fields: firstName, lastName, fullName, title, email, company, companyDomain, city, region, country, and custom.<name> for a contact's custom fields; add a fallback after a bar, as in {{firstName|there}}.",
    );
    const f = await draftFixture();
    const other = await createOwnerWorkspace(prisma);
    const foreignAudience = await prisma.audience.create({ data: { workspaceId: other.workspaceId, name: "theirs" } });
    await expect(
      updateDraft(prisma, {
        workspaceId: f.workspaceId,
        campaignId: f.campaign.id,
        input: { audienceId: foreignAudience.id },
        actor: f.actor,
      }),
    ).rejects.toMatchObject({
      code: "validation_failed",
      errors: [{ pointer: "/audienceId" }],
    });
    const letters = await prisma.fulfilmentContract.create({
      data: { workspaceId: f.workspaceId, name: "Letters", format: "letter", unitCostCents: 90 },
    });
    await expect(
      updateDraft(prisma, {
        workspaceId: f.workspaceId,
        campaignId: f.campaign.id,
        input: { fulfilmentContractId: letters.id },
        actor: f.actor,
      }),
    ).rejects.toMatchObject({
      code: "validation_failed",
      message: "The contract is for letters, not postcards.",
    });
  });

  it("goes live once: freezes the entry policy and the account arms at the share; then edits are refused", async () => {
    const f = await draftFixture();
    const live = await goLive(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, actor: f.actor });
    expect(live).toMatchObject({ status: "live", arms: { accounts: 10, heldOut: 2 } });
    expect(live.entryPolicyFrozenAt).toBeInstanceOf(Date);
    const detail = await getCampaignDetail(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id });
    expect(detail.armAccounts).toEqual({ treatment: 8, holdout: 2 });
    await expect(
      goLive(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, actor: f.actor }),
    ).rejects.toMatchObject({ code: "invalid_state" });
    await expect(
      updateDraft(prisma, {
        workspaceId: f.workspaceId,
        campaignId: f.campaign.id,
        input: { acceptsApiEvents: false },
        actor: f.actor,
      }),
    ).rejects.toMatchObject({ code: "invalid_state" });
    // Contacts added after go-live do not change the frozen arms.
    await createAudience(prisma, f.workspaceId, { accounts: 2, perAccount: 1 });
    expect(
      (await getCampaignDetail(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id })).armAccounts,
    ).toEqual({ treatment: 8, holdout: 2 });
    expect(
      await prisma.auditLogEntry.count({ where: { workspaceId: f.workspaceId, action: "campaign.went_live" } }),
    ).toBe(1);
  });

  it("says what is missing before going live, and changes nothing", async () => {
    const f = await draftFixture();
    await updateDraft(prisma, {
      workspaceId: f.workspaceId,
      campaignId: f.campaign.id,
      input: { destinationUrl: null, headline: "" },
      actor: f.actor,
    });
    await expect(
      goLive(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, actor: f.actor }),
    ).rejects.toMatchObject({
      message:
        "Before going live: set the destination URL that response links lead to; write the headline and the message, or choose a design.",
    });
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } })).status).toBe("draft");
    expect(await prisma.holdoutAssignment.count({ where: { campaignId: f.campaign.id } })).toBe(0);
  });

  it("pauses, resumes and ends only from the right states; ending lets waiting events skip and release", async () => {
    const f = await draftFixture();
    await goLive(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, actor: f.actor });
    const change = (c: "pause" | "resume" | "end") =>
      changeCampaignState(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, change: c, actor: f.actor });
    await expect(change("resume")).rejects.toMatchObject({
      code: "invalid_state",
      message: "A live campaign cannot resume.",
    });
    expect((await change("pause")).status).toBe("paused");
    const post = (key: string) =>
      acceptEntryEvent(prisma, {
        workspaceId: f.workspaceId,
        apiKeyId: null,
        source: "api",
        input: { campaignId: f.campaign.id, contactId: f.contacts[0].id, idempotencyKey: key },
      });
    await expect(post("while-paused")).rejects.toMatchObject({ code: "campaign_not_live" });
    expect((await change("resume")).status).toBe("live");
    const posted = await post("after-resume");
    expect((await change("end")).status).toBe("ended");
    await drain(prisma, testClock(), f.workspaceId);
    const event = await prisma.entryEvent.findUniqueOrThrow({ where: { id: posted.eventId } });
    expect(event).toMatchObject({ status: "skipped", skipReason: "campaign_ended" });
    await expect(change("resume")).rejects.toMatchObject({ code: "invalid_state" });
    const page = await listCampaignEvents(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, take: 10 });
    expect(page.items.map((e) => e.id)).toEqual([posted.eventId]);
  });

  it("never sets a budget below what is spent and held", async () => {
    const f = await draftFixture();
    await prisma.campaign.update({ where: { id: f.campaign.id }, data: { spentCents: 3000, reservedCents: 500 } });
    await expect(
      setBudget(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, budgetCents: 3499, actor: f.actor }),
    ).rejects.toMatchObject({
      message: "The budget cannot be below the 35.00 USD already spent or held.",
    });
    expect(
      (
        await setBudget(prisma, {
          workspaceId: f.workspaceId,
          campaignId: f.campaign.id,
          budgetCents: 3500,
          actor: f.actor,
        })
      ).budgetCents,
    ).toBe(3500);
  });

  it("another workspace's campaign is not found", async () => {
    const f = await draftFixture();
    const other = await createOwnerWorkspace(prisma);
    for (const attempt of [
      () => getCampaignDetail(prisma, { workspaceId: other.workspaceId, campaignId: f.campaign.id }),
      () => goLive(prisma, { workspaceId: other.workspaceId, campaignId: f.campaign.id, actor: f.actor }),
      () =>
        changeCampaignState(prisma, {
          workspaceId: other.workspaceId,
          campaignId: f.campaign.id,
          change: "end",
          actor: f.actor,
        }),
    ]) {
      await expect(attempt()).rejects.toMatchObject({ code: "not_found" });
    }
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } })).status).toBe("draft");
  });

  it("a campaign printing through a real vendor cannot go live while the public address is a loopback one; the readiness list says what to set", async () => {
    const f = await draftFixture();
    await prisma.fulfilmentContract.update({ where: { id: f.contract.id }, data: { vendor: "lob" } });
    const saved = process.env.NEXTAUTH_URL;
    try {
      process.env.NEXTAUTH_URL = "http://127.0.0.1:3000";
      const sentence =
        "The service's public address is http://127.0.0.1:3000, a loopback address: every printed QR code and link would lead there and no recipient could open it. Set NEXTAUTH_URL to the service's public https address (for example https://mail.yourcompany.com) and restart it, then go live.";
      await expect(
        goLive(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, actor: f.actor }),
      ).rejects.toMatchObject({ code: "invalid_state", message: sentence });
      const readiness = await campaignReadiness(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id });
      expect(readiness.items.find((i) => i.key === "printer")).toMatchObject({ ok: false, detail: sentence });
      // Nothing went live, no arm was drawn.
      expect((await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } })).status).toBe("draft");
      expect(await prisma.holdoutAssignment.count({ where: { campaignId: f.campaign.id } })).toBe(0);
      // The sandbox printer mails nothing: its campaigns go live on a laptop as before.
      await prisma.fulfilmentContract.update({ where: { id: f.contract.id }, data: { vendor: "sandbox" } });
      expect(
        await publicAddressProblem(prisma, { workspaceId: f.workspaceId, fulfilmentContractId: f.contract.id }),
      ).toBeNull();
      // A Lob test key mails nothing either.
      const testKey = await prisma.printVendorConnection.create({
        data: { workspaceId: f.workspaceId, vendor: "lob", mode: "test", keyHint: "abcd", connectedByLabel: "test" },
      });
      await prisma.fulfilmentContract.update({
        where: { id: f.contract.id },
        data: { vendor: "lob", connectionId: testKey.id },
      });
      expect(
        await publicAddressProblem(prisma, { workspaceId: f.workspaceId, fulfilmentContractId: f.contract.id }),
      ).toBeNull();
      await prisma.fulfilmentContract.update({
        where: { id: f.contract.id },
        data: { vendor: "lob", connectionId: null },
      });
      process.env.NEXTAUTH_URL = "https://mail.acme.example";
      expect(
        (await goLive(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, actor: f.actor })).status,
      ).toBe("live");
    } finally {
      if (saved === undefined) delete process.env.NEXTAUTH_URL;
      else process.env.NEXTAUTH_URL = saved;
    }
    for (const url of [
      "http://localhost:3000",
      "http://app.localhost",
      "http://127.8.0.1",
      "http://[::1]:3000",
      "http://0.0.0.0:3000",
    ])
      expect(isLoopbackUrl(url), url).toBe(true);
    for (const url of ["https://mail.acme.example", "http://10.0.0.5:3000", "not a url"])
      expect(isLoopbackUrl(url), url).toBe(false);
  });
});
