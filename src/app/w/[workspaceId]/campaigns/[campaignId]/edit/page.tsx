import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { CampaignForm } from "@/components/campaigns/campaign-form";
import type { TCampaignDraft } from "@/server/programme/campaigns/schema";
import { loadPage } from "@/trpc/server";
import { RoleGate } from "@/components/access/role";

export const metadata: Metadata = { title: "Edit campaign" };

export default async function EditCampaignPage({
  params,
}: {
  params: Promise<{ workspaceId: string; campaignId: string }>;
}) {
  const { workspaceId, campaignId } = await params;
  const c = await loadPage((caller) => caller.campaign.get({ workspaceId, campaignId }));
  if (c.status !== "draft") redirect(`/w/${workspaceId}/campaigns/${campaignId}`);
  return (
    <RoleGate action="prepare">
      <CampaignForm
        workspaceId={workspaceId}
        campaignId={campaignId}
        initial={{
          name: c.name,
          format: c.format,
          audienceId: c.audienceId,
          acceptsApiEvents: c.acceptsApiEvents,
          entryPolicy: c.entryPolicy,
          sendAt: c.sendAt,
          holdoutShare: c.holdoutShare,
          frequencyCapContact: c.frequencyCapContact,
          frequencyCapAccount: c.frequencyCapAccount,
          frequencyWindowDays: c.frequencyWindowDays,
          reviewGate: c.reviewGate,
          budgetCents: c.budgetCents,
          fulfilmentContractId: c.fulfilmentContractId,
          designId: c.designId,
          destinationUrl: c.destinationUrl,
          headline: c.headline,
          bodyTemplate: c.bodyTemplate,
          signOff: c.signOff,
          endsAt: c.endsAt,
          responseMode: c.responseMode,
          pageCallToAction: c.pageCallToAction,
          meetingUrl: c.meetingUrl,
          giftOptions: c.giftOptions as TCampaignDraft["giftOptions"],
          claimWindowDays: c.claimWindowDays,
        }}
      />
    </RoleGate>
  );
}
