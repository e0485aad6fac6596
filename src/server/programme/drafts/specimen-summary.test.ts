import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { campaignReadiness } from "@/server/programme/campaigns/readiness";
import { testDatabase } from "@/test/database";
import { drainJobs } from "@/test/jobs";
import { liveCampaign } from "@/test/lifecycle-fixtures";
import { draftSummary, requestDraftGeneration } from "./service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const actor = { kind: "system" as const, id: null, label: "test" };

describe("drafts made on the free plan, the workspace paid since", () => {
  it("are said to carry the specimen mark (without holding the campaign back) until they are generated again", async () => {
    const f = await liveCampaign(prisma, {
      plan: "audit",
      accounts: 2,
      perAccount: 1,
      campaign: { status: "draft", wentLiveAt: null, entryPolicyFrozenAt: null },
    });
    const p = { workspaceId: f.workspaceId, campaignId: f.campaign.id };
    await requestDraftGeneration(prisma, { ...p, actor });
    expect(await drainJobs(prisma, { workspaceId: f.workspaceId })).toEqual(["succeeded"]);
    // On the free plan the mark is what a draft should carry: nothing to say.
    expect(await draftSummary(prisma, p)).toMatchObject({ total: 2, specimenMarked: 0, specimenSentence: null });

    await prisma.workspace.update({ where: { id: f.workspaceId }, data: { plan: "paid" } });
    const sentence =
      "2 drafts carry the free audit plan's specimen mark, made before the workspace chose the paid plan: generate again to review them as they print; otherwise their pieces are rendered again without the mark when their recipients enter.";
    expect(await draftSummary(prisma, p)).toMatchObject({
      total: 2,
      outOfDate: 0,
      specimenMarked: 2,
      specimenSentence: sentence,
    });
    expect((await campaignReadiness(prisma, p)).items.find((i) => i.key === "drafts")).toMatchObject({
      ok: true,
      detail: sentence,
    });

    await requestDraftGeneration(prisma, { ...p, actor });
    expect(await drainJobs(prisma, { workspaceId: f.workspaceId })).toEqual(["succeeded"]);
    expect(await draftSummary(prisma, p)).toMatchObject({ specimenMarked: 0, specimenSentence: null });
    expect(await prisma.draft.count({ where: { campaignId: f.campaign.id, specimen: true } })).toBe(0);
  });
});
