import type { Metadata } from "next";
import { CampaignForm } from "@/components/campaigns/campaign-form";

export const metadata: Metadata = { title: "New campaign" };

export default async function NewCampaignPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  return <CampaignForm workspaceId={(await params).workspaceId} />;
}
