import type { Prisma, PrismaClient } from "@/generated/prisma/client";
import { drain, eventRow, liveCampaign, postEvent, testClock } from "./lifecycle-fixtures";

/**
 * A live campaign whose printed link opens a personal landing page, with one piece mailed through
 * the real lifecycle: its code is the page's.
 */
export async function landingPageCampaign(
  prisma: PrismaClient,
  campaign: Partial<Prisma.CampaignUncheckedCreateInput> = {},
) {
  const f = await liveCampaign(prisma, {
    accounts: 2,
    perAccount: 1,
    campaign: { responseMode: "landing_page", pageCallToAction: "reply", ...campaign },
  });
  const clock = testClock();
  const { eventId } = await postEvent(prisma, f, f.contacts[0].id);
  await drain(prisma, clock, f.workspaceId);
  const piece = (await eventRow(prisma, eventId)).enrollment!.mailPiece!;
  return { ...f, clock, eventId, piece, code: piece.responseCode };
}

/**
 * A live gift campaign whose gifts ship only after a claim, with an approved sandbox gift contract
 * (US and Canada) and one entry event run until it waits for its recipient's claim.
 */
export async function giftClaimCampaign(
  prisma: PrismaClient,
  opts: { campaign?: Partial<Prisma.CampaignUncheckedCreateInput>; accounts?: number } = {},
) {
  const f = await liveCampaign(prisma, {
    accounts: opts.accounts ?? 2,
    perAccount: 1,
    contract: false,
    campaign: {
      format: "gift",
      responseMode: "gift_claim",
      giftOptions: ["coffee-sampler", "tea-tin"],
      claimWindowDays: 14,
      ...opts.campaign,
    },
  });
  const contract = await prisma.fulfilmentContract.create({
    data: {
      workspaceId: f.workspaceId,
      name: "Sandbox gifts",
      format: "gift",
      size: "4x6",
      countries: ["US", "CA"],
      unitCostCents: 3550,
      status: "approved",
      approvedAt: new Date(),
    },
  });
  const campaign = await prisma.campaign.update({
    where: { id: f.campaign.id },
    data: { fulfilmentContractId: contract.id },
  });
  const clock = testClock();
  const { eventId } = await postEvent(prisma, { ...f, campaign }, f.contacts[0].id);
  await drain(prisma, clock, f.workspaceId);
  const piece = (await eventRow(prisma, eventId)).enrollment!.mailPiece!;
  return { ...f, campaign, contract, clock, eventId, piece, code: piece.responseCode };
}
