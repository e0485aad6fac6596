import type { CardKind, ConfirmationCard } from "@/generated/prisma/client";
import type { Actor } from "@/server/audit/service";
import { goLiveProblems, requireCampaign } from "@/server/campaigns/service";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { createCard } from "./service";

/** How long a person has to decide an agent's request before the card expires. */
export const REQUEST_CARD_TTL_HOURS = 72;

const usd = (cents: number) => `${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} USD`;

/** A pending card for the same request is returned again: one card per consequential request. */
async function pendingCard(db: Db, p: { workspaceId: string; kind: CardKind; campaignId: string; budgetAfterCents?: number }, now: Date) {
  return db.confirmationCard.findFirst({
    where: { workspaceId: p.workspaceId, kind: p.kind, campaignId: p.campaignId, status: "pending", expiresAt: { gt: now }, ...(p.budgetAfterCents !== undefined ? { budgetAfterCents: p.budgetAfterCents } : {}) },
  });
}

export interface RequestOutcome {
  card: ConfirmationCard;
  /** False when an identical request was already waiting. */
  created: boolean;
}

/**
 * An agent asks for a draft to go live. Nothing changes until the owner accepts the card; the
 * card says how many accounts will be mailed and held out, and the unit cost and budget.
 */
export async function requestGoLive(db: Db, p: { workspaceId: string; campaignId: string; requestedBy: Actor; now?: Date }): Promise<RequestOutcome> {
  const now = p.now ?? new Date();
  const campaign = await requireCampaign(db, p);
  if (campaign.status !== "draft") {
    // A retry after the person accepted (URL-mode elicitation clients retry) gets the decided card.
    const accepted = await db.confirmationCard.findFirst({ where: { workspaceId: p.workspaceId, kind: "go_live", campaignId: campaign.id, status: "accepted", executedAt: { not: null } }, orderBy: { decidedAt: "desc" } });
    if (accepted) return { card: accepted, created: false };
    throw new AppError("invalid_state", `The campaign is already ${campaign.status}; only a draft can be asked to go live.`);
  }
  const problems = await goLiveProblems(db, campaign);
  if (problems.length) throw new AppError("invalid_state", `Before asking to go live: ${problems.join("; ")}. Nothing was requested.`);
  const existing = await pendingCard(db, { workspaceId: p.workspaceId, kind: "go_live", campaignId: campaign.id }, now);
  if (existing) return { card: existing, created: false };
  const contacts = await db.audienceMember.count({ where: { audienceId: campaign.audienceId! } });
  const contract = campaign.fulfilmentContractId ? await db.fulfilmentContract.findFirst({ where: { id: campaign.fulfilmentContractId, workspaceId: p.workspaceId } }) : null;
  const unit = contract?.unitCostCents ?? 0;
  const expectedRecipients = Math.round(contacts * (1 - campaign.holdoutShare));
  const card = await createCard(db, {
    workspaceId: p.workspaceId,
    kind: "go_live",
    title: `Take “${campaign.name}” live`,
    summary:
      `${p.requestedBy.label} asks to take the ${campaign.format} campaign “${campaign.name}” live. Its entry policy (${campaign.acceptsApiEvents ? "accepts" : "does not accept"} API entry events), its copy and its holdout of ${Math.round(campaign.holdoutShare * 100)}% of accounts are frozen; ` +
      `about ${expectedRecipients} of the audience's ${contacts} contacts are in mailed accounts. ` +
      (contract ? `Each piece costs ${usd(unit)} (${contract.name}) and spending stops at the budget of ${usd(campaign.budgetCents)}` : `No fulfilment contract is chosen yet, so nothing prints until one is; the budget is ${usd(campaign.budgetCents)}`) +
      `${campaign.reviewGate !== "none" ? `; the review gate (${campaign.reviewGate}) still asks you before each piece is printed` : ""}.`,
    params: { campaignId: campaign.id },
    campaignId: campaign.id,
    costCents: unit * expectedRecipients,
    recipients: expectedRecipients,
    budgetAfterCents: campaign.budgetCents,
    requestedBy: p.requestedBy,
    expiresAt: new Date(now.getTime() + REQUEST_CARD_TTL_HOURS * 3600_000),
  });
  return { card, created: true };
}

/** An agent asks to raise (or set) a campaign's budget. Spending more always waits for a person. */
export async function requestBudget(db: Db, p: { workspaceId: string; campaignId: string; budgetCents: number; requestedBy: Actor; now?: Date }): Promise<RequestOutcome> {
  const now = p.now ?? new Date();
  const campaign = await requireCampaign(db, p);
  if (campaign.status === "ended") throw new AppError("invalid_state", "The campaign has ended; its budget cannot change. Nothing was requested.");
  if (p.budgetCents <= campaign.budgetCents) throw new AppError("invalid_state", `The budget is already ${usd(campaign.budgetCents)}; ask for more than that. Nothing was requested.`);
  const existing = await pendingCard(db, { workspaceId: p.workspaceId, kind: "raise_budget", campaignId: campaign.id, budgetAfterCents: p.budgetCents }, now);
  if (existing) return { card: existing, created: false };
  const card = await createCard(db, {
    workspaceId: p.workspaceId,
    kind: "raise_budget",
    title: `Raise the budget of “${campaign.name}” to ${usd(p.budgetCents)}`,
    summary: `${p.requestedBy.label} asks to raise the budget of “${campaign.name}” from ${usd(campaign.budgetCents)} to ${usd(p.budgetCents)} (${usd(campaign.spentCents)} spent so far, ${usd(campaign.reservedCents)} held for pieces on their way). Up to ${usd(p.budgetCents - campaign.budgetCents)} more may be spent on printing and postage.`,
    params: { campaignId: campaign.id, budgetCents: p.budgetCents },
    campaignId: campaign.id,
    costCents: p.budgetCents - campaign.budgetCents,
    budgetAfterCents: p.budgetCents,
    requestedBy: p.requestedBy,
    expiresAt: new Date(now.getTime() + REQUEST_CARD_TTL_HOURS * 3600_000),
  });
  return { card, created: true };
}
