import type { Metadata } from "next";
import { CampaignDetail } from "@/components/campaigns/campaign-detail";
import { loadPage } from "@/trpc/server";

export const metadata: Metadata = { title: "Campaign" };

export default async function CampaignPage({
  params,
}: {
  params: Promise<{ workspaceId: string; campaignId: string }>;
}) {
  const { workspaceId, campaignId } = await params;
  await loadPage((caller) => caller.campaign.get({ workspaceId, campaignId }));
  return <CampaignDetail workspaceId={workspaceId} campaignId={campaignId} />;
}
