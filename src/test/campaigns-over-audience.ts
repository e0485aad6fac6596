import type { PrismaClient } from "@/generated/prisma/client";
import { ZCampaignDraft } from "@/server/programme/campaigns/schema";
import { createDraft, goLive } from "@/server/programme/campaigns/service";
import { callerFor, createAudience, createOwnerWorkspace } from "./factories";
import { drain, testClock } from "./lifecycle-fixtures";

/**
 * A paid workspace with one audience of `accounts` one-contact accounts, a sandbox contract at
 * 1.20 USD, and `campaign(name, holdoutShare)`: a campaign over the audience taken live through
 * the service and run until every entry has settled (pieces really charged), and the owner's caller.
 */
/** A ready postcard draft over an audience: everyone at go-live, no caps, a sandbox contract. */
export function postcardDraftInput(p: { name: string; audienceId: string; contractId: string; holdoutShare: number }) {
  return ZCampaignDraft.parse({
    name: p.name,
    format: "postcard",
    audienceId: p.audienceId,
    acceptsApiEvents: false,
    entryPolicy: "audience_at_go_live",
    holdoutShare: p.holdoutShare,
    frequencyCapContact: null,
    frequencyCapAccount: null,
    frequencyWindowDays: 30,
    reviewGate: "none",
    budgetCents: 100_000,
    fulfilmentContractId: p.contractId,
    destinationUrl: "https://acme.example/hello",
    headline: "{{firstName}}, welcome",
    bodyTemplate: "Hi {{firstName}} at {{company}}",
    signOff: "Sam",
    endsAt: null,
  });
}

export async function workspaceWithCampaigns(prisma: PrismaClient, accounts: number) {
  const o = await createOwnerWorkspace(prisma);
  const { audience, contacts } = await createAudience(prisma, o.workspaceId, { accounts, perAccount: 1 });
  const contract = await prisma.fulfilmentContract.create({
    data: { workspaceId: o.workspaceId, name: "Sandbox", format: "postcard", unitCostCents: 120, status: "approved" },
  });
  const actor = { kind: "user" as const, id: o.user.id, label: o.user.email };
  const campaign = async (name: string, holdoutShare = 0) => {
    const draft = await createDraft(prisma, {
      workspaceId: o.workspaceId,
      actor,
      input: postcardDraftInput({ name, audienceId: audience.id, contractId: contract.id, holdoutShare }),
    });
    await goLive(prisma, { workspaceId: o.workspaceId, campaignId: draft.id, actor });
    await drain(prisma, testClock(), o.workspaceId);
    return draft;
  };
  return { ...o, audience, contacts, campaign, owner: await callerFor(prisma, o.user) };
}
