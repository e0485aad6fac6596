import type { Metadata } from "next";
import { CampaignsList } from "@/components/campaigns/campaigns-list";

export const metadata: Metadata = { title: "Campaigns" };

export default async function CampaignsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  return <CampaignsList workspaceId={(await params).workspaceId} />;
}
