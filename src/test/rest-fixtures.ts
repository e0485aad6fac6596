import type { PrismaClient } from "@/generated/prisma/client";
import { createAudience, createOwnerWorkspace } from "./factories";

/** A paid workspace with a live campaign that accepts API events, its audience, and a mailed piece. */
export async function liveApiCampaign(prisma: PrismaClient) {
  const owner = await createOwnerWorkspace(prisma, { plan: "paid" });
  const { audience, contacts } = await createAudience(prisma, owner.workspaceId, { accounts: 3, perAccount: 2 });
  const campaign = await prisma.campaign.create({
    data: {
      workspaceId: owner.workspaceId,
      name: "Live",
      format: "postcard",
      status: "live",
      acceptsApiEvents: true,
      audienceId: audience.id,
      budgetCents: 10_000,
    },
  });
  const sid = `S${owner.workspaceId.slice(3, 18)}`;
  const piece = await prisma.mailPiece.create({
    data: {
      workspaceId: owner.workspaceId,
      campaignId: campaign.id,
      contactId: contacts[0].id,
      sid,
      responseCode: sid.slice(0, 10),
      status: "mailed",
      mailedAt: new Date(),
    },
  });
  return { ...owner, audience, contacts, campaign, piece };
}
