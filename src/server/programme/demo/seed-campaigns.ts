import type { CampaignFormat, Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { SandboxPrintVendor } from "@/server/programme/fulfilment/sandbox";
import { freezeDemoArms } from "./arms";

type CampaignData = Omit<Prisma.CampaignUncheckedCreateInput, "workspaceId" | "name">;

/** Print contracts with the sandbox vendor and the demo's campaigns, live ones with frozen arms. */
export async function seedCampaigns(
  db: Db,
  p: { workspaceId: string; handle: string; ownerName: string; userId: string; audienceId: string; designId: string },
) {
  const { workspaceId, handle, ownerName, userId, audienceId } = p;
  const sandbox = new SandboxPrintVendor(db);
  const contract = async (
    name: string,
    format: CampaignFormat,
    size: string,
    countries: string[],
    approved: boolean,
  ) => {
    const existing = await db.fulfilmentContract.findFirst({ where: { workspaceId, name } });
    if (existing) return existing;
    const quote = await sandbox.quote({ format, size, countries });
    return db.fulfilmentContract.create({
      data: {
        workspaceId,
        name,
        format,
        size,
        countries,
        unitCostCents: quote.unitCostCents,
        quote,
        vendor: "sandbox",
        status: approved ? "approved" : "proposed",
        approvedAt: approved ? new Date() : null,
        approvedByUserId: approved ? userId : null,
      },
    });
  };
  const postcards = await contract("Sandbox postcards 6x9", "postcard", "6x9", ["US"], true);
  const notes = await contract("Sandbox handwritten notes", "handwritten", "5x7", ["US"], true);
  await contract("Sandbox gifts", "gift", "4x6", ["US"], false);

  const now = new Date();
  const campaign = async (name: string, data: CampaignData) =>
    (await db.campaign.findFirst({ where: { workspaceId, name } })) ??
    db.campaign.create({ data: { workspaceId, name, ...data } });
  const live = (data: CampaignData): CampaignData => ({
    status: "live",
    entryPolicyFrozenAt: now,
    wentLiveAt: now,
    copyApprovedAt: now,
    copyApprovedBy: userId,
    audienceId,
    ...data,
  });
  const postcard = {
    format: "postcard" as const,
    designId: p.designId,
    fulfilmentContractId: postcards.id,
    destinationUrl: `https://www.${handle}.example/welcome`,
    headline: "{{firstName}}, thanks for trying us",
    bodyTemplate:
      "Hi {{firstName}},\n\nWe saw the team at {{company}} started a trial. Scan the code to book 20 minutes with a specialist who has set this up for teams like yours.",
    signOff: ownerName,
  };
  // Live for three weeks: its pieces went out one and almost two weeks ago (seed-pieces.ts).
  const threeWeeksAgo = new Date(now.getTime() - 21 * 86_400_000);
  const liveApiEntry = await campaign(
    "Trial sign-up follow-up (demo)",
    live({
      ...postcard,
      acceptsApiEvents: true,
      holdoutShare: 0.2,
      frequencyCapContact: 1,
      frequencyWindowDays: 30,
      // A contact may enter again a week after its last entry, when the frequency cap still holds
      // its piece back (the demo's frequency-capped path re-enters a contact mailed a week ago or more).
      reentryAfterDays: 7,
      budgetCents: 50_000,
      wentLiveAt: threeWeeksAgo,
      entryPolicyFrozenAt: threeWeeksAgo,
      copyApprovedAt: threeWeeksAgo,
      createdAt: threeWeeksAgo,
    }),
  );
  const liveNoApiEntry = await campaign(
    "Executive thank-you notes (demo)",
    live({
      format: "handwritten",
      acceptsApiEvents: false,
      holdoutShare: 0.25,
      budgetCents: 20_000,
      fulfilmentContractId: notes.id,
      destinationUrl: `https://www.${handle}.example/thanks`,
      headline: "Thank you, {{firstName}}",
      bodyTemplate: "{{firstName}}, thank you for the time you and {{company}} gave us this quarter.",
      signOff: ownerName,
    }),
  );
  const reviewGated = await campaign(
    "Enterprise pilot invitations (demo)",
    live({
      ...postcard,
      acceptsApiEvents: true,
      holdoutShare: 0.2,
      reviewGate: "each_piece",
      budgetCents: 30_000,
      headline: "{{firstName}}, an invitation for {{company}}",
    }),
  );
  const budgetExhausted = await campaign(
    "Webinar follow-up, budget spent (demo)",
    live({ ...postcard, acceptsApiEvents: true, holdoutShare: 0.2, budgetCents: 0 }),
  );
  const draft = await campaign("Closed-lost revival gifts (demo)", {
    format: "gift",
    status: "draft",
    audienceId,
    acceptsApiEvents: true,
    holdoutShare: 0.3,
    budgetCents: 100_000,
    destinationUrl: `https://www.${handle}.example/reconnect`,
    headline: "Something for the {{company}} team",
    bodyTemplate: "{{firstName}}, a small thank-you from all of us.",
  });
  for (const c of [liveApiEntry, liveNoApiEntry, reviewGated, budgetExhausted]) {
    await freezeDemoArms(db, {
      workspaceId,
      campaignId: c.id,
      campaignName: c.name,
      audienceId,
      holdoutShare: c.holdoutShare,
    });
  }
  return {
    liveApiEntry,
    liveNoApiEntry,
    reviewGated,
    budgetExhausted,
    draft,
    postcardUnitCostCents: postcards.unitCostCents,
  };
}
