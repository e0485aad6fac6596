import { randomBytes } from "node:crypto";
import type { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { callerFor, createAudience, createOwnerWorkspace } from "@/test/factories";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (error: TRPCError) => ({ code: error.code, message: error.message }),
  );

describe("campaign readiness", () => {
  it("names every blocker of a new person's first draft, and the owner's go-live refuses until none is left", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "audit" });
    const caller = await callerFor(prisma, o.user);
    const campaign = await prisma.campaign.create({
      data: { workspaceId: o.workspaceId, name: "First", format: "postcard" },
    });
    const p = { workspaceId: o.workspaceId, campaignId: campaign.id };

    const first = await caller.campaign.readiness(p);
    expect(first.ready).toBe(false);
    expect(first.items.filter((i) => !i.ok).map((i) => i.key)).toEqual([
      "audience",
      "entry",
      "mailability",
      "destination",
      "copy",
      "plan",
      "printer",
      "budget",
    ]);
    expect(first.items.find((i) => i.key === "entry")).toMatchObject({
      label: "Who gets this, and when",
      detail: expect.stringContaining("Nobody"),
    });
    // Drafts are optional: with none, the item says so instead of vouching for drafts that do not exist.
    expect(first.items.find((i) => i.key === "drafts")).toEqual({
      key: "drafts",
      label: "Drafts are optional",
      ok: true,
      detail: "No drafts: each piece is rendered when its recipient enters; generate drafts to review them first.",
      fix: `/campaigns/${campaign.id}#drafts`,
    });
    expect(first.items.find((i) => i.key === "plan")).toMatchObject({
      detail: expect.stringContaining("free audit plan"),
      fix: "/settings/plan",
    });
    expect(first.items.find((i) => i.key === "printer")).toMatchObject({
      detail: "No fulfilment contract is chosen.",
      fix: "/settings/printing",
    });

    const refused = await refusal(caller.campaign.goLive(p));
    expect(refused?.code).toBe("CONFLICT");
    expect(refused?.message).toMatch(
      /^Not ready to go live\. An audience with contacts: No audience is chosen\. .* The paid plan \(mailing on\): The workspace is on the free audit plan: nothing reaches a mailbox\. /,
    );
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("draft");
    expect(await prisma.holdoutAssignment.count({ where: { campaignId: campaign.id } })).toBe(0);

    // A headline without its message: the item says which of the two is missing.
    await caller.campaign.update({ ...p, draft: { headline: "Hi {{firstName|there}}" } });
    expect((await caller.campaign.readiness(p)).items.find((i) => i.key === "copy")).toMatchObject({
      ok: false,
      detail: "The headline is written (“Hi {{firstName|there}}”); the message is missing.",
    });
    // Fix each one: audience, copy and URL, plan, an approved contract, a budget.
    const { audience } = await createAudience(prisma, o.workspaceId, { accounts: 4, perAccount: 2 });
    const contract = await prisma.fulfilmentContract.create({
      data: {
        workspaceId: o.workspaceId,
        name: "Sandbox postcards",
        format: "postcard",
        size: "6x9",
        unitCostCents: 95,
        status: "proposed",
      },
    });
    await caller.campaign.update({
      ...p,
      draft: {
        audienceId: audience.id,
        destinationUrl: "https://example.com/a",
        headline: "Hello {{firstName}}",
        bodyTemplate: "A note for {{company}}.",
        fulfilmentContractId: contract.id,
        entryPolicy: "audience_at_go_live",
      },
    });
    await prisma.workspace.update({ where: { id: o.workspaceId }, data: { plan: "paid" } });
    await caller.campaign.setBudget({ ...p, budgetCents: 50 });

    const almost = await caller.campaign.readiness(p);
    expect(almost.items.filter((i) => !i.ok).map((i) => [i.key, i.detail])).toEqual([
      [
        "mailability",
        "No mailability audit for this campaign yet: run it to see how much of its audience this format and printer can reach, and why not.",
      ],
      ["printer", "Sandbox postcards is proposed, not approved."],
      ["budget", "The budget is less than one piece costs."],
    ]);

    await prisma.fulfilmentContract.update({ where: { id: contract.id }, data: { status: "approved" } });
    await caller.campaign.setBudget({ ...p, budgetCents: 10_000 });
    // The campaign's own audit (its audience, for postcards through its printer), and then it is ready.
    const audit = await caller.mailability.run({ ...p, verify: false });
    expect(audit.status).toBe("succeeded");
    expect((await caller.campaign.readiness(p)).items.find((i) => i.key === "mailability")).toMatchObject({
      ok: true,
      fix: `/audits/${audit.auditId}`,
    });
    // An edit to one of its contacts makes the audit stale, until it runs again.
    await prisma.contact.update({
      where: { id: (await prisma.audienceMember.findFirstOrThrow({ where: { audienceId: audience.id } })).contactId },
      data: { city: "Cambridge" },
    });
    expect((await caller.campaign.readiness(p)).items.find((i) => i.key === "mailability")).toMatchObject({
      ok: false,
      detail: expect.stringContaining("is out of date: 1 contact of the audience was edited since. Run it again."),
      fix: `/campaigns/${campaign.id}#audit`,
    });
    await caller.mailability.run({ ...p, verify: false });
    expect((await caller.campaign.readiness(p)).ready).toBe(true);
    // The person looked at an older version of the draft (an agent edited it meanwhile): nothing goes live.
    const seen = (await caller.campaign.get(p)).draftVersion;
    await caller.campaign.update({ ...p, draft: { headline: "Edited while the dialog was open" } });
    expect(await refusal(caller.campaign.goLive({ ...p, draftVersion: seen }))).toEqual({
      code: "CONFLICT",
      message: expect.stringMatching(/^The draft changed after it was shown for approval, so nothing went live/),
    });
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("draft");
    const live = await caller.campaign.goLive({ ...p, draftVersion: (await caller.campaign.get(p)).draftVersion });
    expect(live.status).toBe("live");
  });

  it("drafts with text that does not fit block going live, and another workspace's campaign is not found", async () => {
    const o = await createOwnerWorkspace(prisma);
    const other = await createOwnerWorkspace(prisma);
    const caller = await callerFor(prisma, o.user);
    const { audience, contacts } = await createAudience(prisma, o.workspaceId, { accounts: 1, perAccount: 1 });
    const campaign = await prisma.campaign.create({
      data: { workspaceId: o.workspaceId, name: "Fits?", format: "postcard", audienceId: audience.id },
    });
    const sid = randomBytes(8).toString("hex");
    await prisma.draft.create({
      data: {
        workspaceId: o.workspaceId,
        campaignId: campaign.id,
        contactId: contacts[0].id,
        overflowing: true,
        specimen: false,
        sid,
        responseCode: sid.slice(0, 10),
        pdf: Buffer.from("%PDF"),
        pdfBytes: 4,
        pages: 2,
        renderedAt: new Date(),
      },
    });
    const drafts = (
      await caller.campaign.readiness({ workspaceId: o.workspaceId, campaignId: campaign.id })
    ).items.find((i) => i.key === "drafts");
    expect(drafts).toMatchObject({ ok: false, detail: "Of 1 drafts, 1 with text that does not fit." });

    // A new budget or name changes nothing printed: the drafts stay up to date.
    await caller.campaign.update({
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      draft: { budgetCents: 25_000, name: "Fits? (renamed)" },
    });
    expect(
      (await caller.campaign.readiness({ workspaceId: o.workspaceId, campaignId: campaign.id })).items.find(
        (i) => i.key === "drafts",
      )?.detail,
    ).toBe("Of 1 drafts, 1 with text that does not fit.");
    // Its recipient corrected since: said beside what blocks, never instead of it.
    await prisma.contact.update({
      where: { id: contacts[0].id },
      data: { addressLine1: "742 Evergreen Terrace", updatedAt: new Date(Date.now() + 1000) },
    });
    expect(
      (await caller.campaign.readiness({ workspaceId: o.workspaceId, campaignId: campaign.id })).items.find(
        (i) => i.key === "drafts",
      ),
    ).toMatchObject({
      ok: false,
      detail:
        "Of 1 drafts, 1 with text that does not fit. 1 draft is out of date: its recipient changed since it was made; generate again to review it; otherwise its piece is rendered again for the recipient as they are now when they enter.",
    });
    // A change to the copy after the drafts were rendered makes them out of date.
    await caller.campaign.update({
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      draft: { headline: "A newer headline" },
    });
    const stale = (await caller.campaign.readiness({ workspaceId: o.workspaceId, campaignId: campaign.id })).items.find(
      (i) => i.key === "drafts",
    );
    expect(stale).toMatchObject({
      ok: false,
      detail:
        "1 of 1 drafts were rendered before the latest change to the copy, design or brand kit: generate them again. 1 draft is out of date: its recipient changed since it was made; generate again to review it; otherwise its piece is rendered again for the recipient as they are now when they enter.",
    });

    const theirs = await callerFor(prisma, other.user);
    expect(
      await refusal(theirs.campaign.readiness({ workspaceId: other.workspaceId, campaignId: campaign.id })),
    ).toEqual({ code: "NOT_FOUND", message: "No such campaign." });
  });
});

describe("readiness copy", () => {
  it("names a handwritten campaign's pieces as handwritten notes", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "audit" });
    const caller = await callerFor(prisma, o.user);
    const campaign = await prisma.campaign.create({
      data: { workspaceId: o.workspaceId, name: "Notes", format: "handwritten" },
    });
    const r = await caller.campaign.readiness({ workspaceId: o.workspaceId, campaignId: campaign.id });
    expect(r.items.find((i) => i.key === "printer")?.label).toBe("An approved printer for handwritten notes");
    expect(JSON.stringify(r)).not.toContain("handwrittens");
  });
});
