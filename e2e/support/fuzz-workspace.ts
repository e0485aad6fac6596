import type { PrismaClient } from "@/generated/prisma/client";
import { goLive } from "@/server/programme/campaigns/service";
import { insertKeyPool } from "@/test/api-key-pool";
import { createAudience, createOwnerWorkspace, TEST_PASSWORD } from "@/test/factories";
import { agentToken, FULL_AGENT_SCOPES } from "./test-agents";

export interface FuzzWorkspace {
  id: string;
  owner: { email: string; password: string };
  /** Live, accepting API entry events, with its audience's contacts. */
  liveCampaignId: string;
  draftCampaignId: string;
  contactIds: string[];
  /** The sid of a mailed piece of the live campaign (conversion reports). */
  sid: string;
  pieceId: string;
  /** The response-link code of that piece (/r/<code>). */
  responseCode: string;
  /** Keys with both scopes: the fuzz suite spreads its calls over them (60 a minute per key and endpoint). */
  apiKeys: string[];
  /** full: campaigns and entry events; people: contacts:write (imports, audiences, suppressions, fixes); readOnly: reads only. */
  agents: { full: string; readOnly: string; people: string };
  /** The client id of the full agent, approved by this workspace's owner (and by no one else). */
  agentClientId: string;
}

/**
 * A workspace of its own for a hostile-input suite (one for e2e/fuzz, one for e2e/api/hardening):
 * nothing else in the run touches it, so "nothing was written" can be checked by comparing what it holds
 * before and after. Built with the test factories and the service's own go-live.
 */
export async function createFuzzWorkspace(prisma: PrismaClient, base: string, name: string): Promise<FuzzWorkspace> {
  const o = await createOwnerWorkspace(prisma, { plan: "paid", name });
  const { audience, contacts } = await createAudience(prisma, o.workspaceId, { accounts: 3, perAccount: 2 });
  const ready = {
    audienceId: audience.id,
    destinationUrl: "https://fuzz.example/landing",
    headline: "Hello {{firstName}}",
    bodyTemplate: "A note for you.",
  };
  const live = await prisma.campaign.create({
    data: {
      workspaceId: o.workspaceId,
      name: "Fuzz live",
      format: "postcard",
      acceptsApiEvents: true,
      budgetCents: 0,
      ...ready,
    },
  });
  await goLive(prisma, {
    workspaceId: o.workspaceId,
    campaignId: live.id,
    actor: { kind: "user", id: o.user.id, label: o.user.email },
  });
  const draft = await prisma.campaign.create({
    data: { workspaceId: o.workspaceId, name: "Fuzz draft", format: "letter", ...ready },
  });
  const sid = `${name.replace(/\W/g, "").slice(0, 8)}Sid0000000000`.slice(0, 16);
  const piece = await prisma.mailPiece.create({
    data: {
      workspaceId: o.workspaceId,
      campaignId: live.id,
      contactId: contacts[0].id,
      sid,
      responseCode: `${name.replace(/\W/g, "")}Code000000`.slice(0, 10),
      status: "mailed",
      mailedAt: new Date(),
    },
  });
  const apiKeys = await insertKeyPool(prisma, {
    workspaceId: o.workspaceId,
    count: 40,
    scopes: ["post_entry_events", "post_conversions"],
    namePrefix: "fuzz",
  });
  const agent = (name: string, scopes: typeof FULL_AGENT_SCOPES) =>
    agentToken(prisma, { base, workspaceId: o.workspaceId, ownerEmail: o.user.email, name, scopes });
  const full = await agent("fuzz agent", FULL_AGENT_SCOPES);
  const grant = await prisma.oAuthGrant.findFirstOrThrow({
    where: { workspaceId: o.workspaceId },
    include: { client: true },
    orderBy: { createdAt: "asc" },
  });
  return {
    id: o.workspaceId,
    owner: { email: o.user.email, password: TEST_PASSWORD },
    liveCampaignId: live.id,
    draftCampaignId: draft.id,
    contactIds: contacts.map((c) => c.id),
    sid,
    pieceId: piece.id,
    responseCode: piece.responseCode,
    apiKeys,
    agents: {
      full,
      readOnly: await agent("fuzz observer", ["workspace:read"]),
      people: await agent("fuzz people agent", ["workspace:read", "contacts:write"]),
    },
    agentClientId: grant.client.clientId,
  };
}
