import type { Metadata } from "next";
import { CampaignResults } from "@/components/results/campaign-results";
import { loadPage } from "@/trpc/server";

export const metadata: Metadata = { title: "Results" };

export default async function ResultsPage({
  params,
}: {
  params: Promise<{ workspaceId: string; campaignId: string }>;
}) {
  const { workspaceId, campaignId } = await params;
  await loadPage((caller) => caller.campaign.get({ workspaceId, campaignId }));
  return <CampaignResults workspaceId={workspaceId} campaignId={campaignId} />;
}
