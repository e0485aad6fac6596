import type { Metadata } from "next";
import { CampaignForm } from "@/components/campaigns/campaign-form";
import { RoleGate } from "@/components/access/role";

export const metadata: Metadata = { title: "New campaign" };

export default async function NewCampaignPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  return (
    <RoleGate action="prepare">
      <CampaignForm workspaceId={(await params).workspaceId} />
    </RoleGate>
  );
}
