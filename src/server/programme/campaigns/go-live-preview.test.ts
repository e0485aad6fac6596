import type { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { requestGoLive } from "@/server/programme/confirmations/requests";
import { testDatabase } from "@/test/database";
import { callerFor, createOwnerWorkspace } from "@/test/factories";
import { liveCampaign } from "@/test/lifecycle-fixtures";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

/** The owner's go-live dialog says who enters the moment they confirm, in the words the agent's card uses. */
describe("campaign.goLivePreview", () => {
  it("says the whole audience enters at once, who is held out and what mailing the rest costs, as the agent's card does", async () => {
    const f = await liveCampaign(prisma, {
      accounts: 5,
      perAccount: 2,
      campaign: {
        status: "draft",
        wentLiveAt: null,
        entryPolicyFrozenAt: null,
        entryPolicy: "audience_at_go_live",
        holdoutShare: 0.2,
        budgetCents: 500,
      },
    });
    const owner = await callerFor(prisma, f.user);
    const preview = await owner.campaign.goLivePreview({ workspaceId: f.workspaceId, campaignId: f.campaign.id });
    expect(preview).toMatchObject({
      entryPolicy: "audience_at_go_live",
      audienceContacts: 10,
      enterNow: 10,
      unitCostCents: 120,
      budgetCents: 500,
      budgetCovers: 4,
      sendAt: null,
    });
    expect(preview.heldOut + preview.toMail).toBe(10);
    expect(preview.estimatedCostCents).toBe(preview.toMail * 120);
    expect(preview.sentence).toMatch(
      new RegExp(
        `^When you accept, all 10 contacts of the audience enter: ${preview.heldOut} of them in held-out accounts \\(never mailed, measured\\), ${preview.toMail} to be mailed as soon as you accept`,
      ),
    );
    // The same figures the agent's go-live card shows the person.
    const { card } = await requestGoLive(prisma, {
      workspaceId: f.workspaceId,
      campaignId: f.campaign.id,
      requestedBy: { kind: "agent", id: "grt_test", label: "Test agent" },
    });
    const { sentence, ...figures } = preview;
    expect((card.params as { entry: unknown }).entry).toEqual(figures);
    expect(card.summary).toContain(sentence);
  });

  it("says nobody enters for a campaign that waits for entry events, and another workspace's campaign is not found", async () => {
    const f = await liveCampaign(prisma, {
      accounts: 2,
      perAccount: 1,
      campaign: { status: "draft", wentLiveAt: null, entryPolicyFrozenAt: null, entryPolicy: "none" },
    });
    const owner = await callerFor(prisma, f.user);
    const preview = await owner.campaign.goLivePreview({ workspaceId: f.workspaceId, campaignId: f.campaign.id });
    expect(preview).toMatchObject({ enterNow: 0, toMail: 0 });
    expect(preview.sentence).toContain(
      "Nobody enters when you accept. Entry events posted with an API key also admit contacts.",
    );

    const other = await createOwnerWorkspace(prisma);
    const stranger = await callerFor(prisma, other.user);
    const refused = await stranger.campaign
      .goLivePreview({ workspaceId: other.workspaceId, campaignId: f.campaign.id })
      .then(
        () => null,
        (e: TRPCError) => ({ code: e.code, message: e.message }),
      );
    expect(refused).toEqual({ code: "NOT_FOUND", message: "No such campaign." });
  });
});
