import type { Campaign, ConfirmationCard } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { unprintableDrafts } from "@/server/programme/drafts/unprintable";

/**
 * What a go-live card tells the person beyond the draft itself (readiness warnings), and the
 * re-check when they accept: the card describes an audience of a given size and a budget; if
 * either no longer holds, accepting expires it with a sentence instead of taking the campaign live.
 */

const usd = (cents: number) =>
  `${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} USD`;

/** A card's audience may grow or shrink by at most this share before it no longer describes the campaign. */
export const AUDIENCE_DRIFT_LIMIT = 0.1;

export interface GoLiveFacts {
  /** Contacts in the audience when the card was made. */
  audienceContacts: number;
  /** Expected mailed recipients (outside the holdout) and the price of one piece, in cents. */
  expectedRecipients: number;
  /** The price of a piece to the audience: its countries' average when their prices differ (unitCostVaries). */
  unitCostCents: number;
  unitCostVaries?: boolean;
  /** What mailing the expected recipients costs at their countries' prices; unitCostCents × expectedRecipients when absent. */
  estimatedCostCents?: number;
  /** The cheapest piece on the contract (a budget below it is said by the card already); unitCostCents when absent. */
  cheapestCents?: number;
}

/** Warnings about what will really happen: budget below the audience's cost, the design's size not the contract's, unmailable contacts, missing glyphs. */
export async function goLiveReadinessWarnings(
  db: Db,
  campaign: Campaign,
  facts: GoLiveFacts & { contractSize: string | null; contractName: string | null },
): Promise<string[]> {
  const warnings: string[] = [];
  const cost = facts.estimatedCostCents ?? facts.unitCostCents * facts.expectedRecipients;
  // Below one piece is said by the card already; this is a budget that pays for some but not the whole audience.
  if (
    facts.unitCostCents > 0 &&
    campaign.budgetCents >= (facts.cheapestCents ?? facts.unitCostCents) &&
    campaign.budgetCents < cost
  ) {
    warnings.push(
      `The budget of ${usd(campaign.budgetCents)} is below the audience's estimated cost of ${usd(cost)} (${facts.expectedRecipients} pieces at ${facts.unitCostVaries ? `an average of ${usd(facts.unitCostCents)}, each at its recipient's country's price` : usd(facts.unitCostCents)}): about ${Math.floor(campaign.budgetCents / facts.unitCostCents)} can be mailed before it runs out.`,
    );
  }
  const design = campaign.designId
    ? await db.design.findFirst({
        where: { id: campaign.designId, workspaceId: campaign.workspaceId },
        select: { size: true, name: true },
      })
    : null;
  if (design && facts.contractSize && design.size !== facts.contractSize) {
    warnings.push(
      `The design “${design.name}” is ${design.size}, but the printer contract${facts.contractName ? ` “${facts.contractName}”` : ""} prints ${facts.contractSize}.`,
    );
  }
  const audit = campaign.audienceId
    ? await db.mailabilityAudit.findFirst({
        where: { workspaceId: campaign.workspaceId, audienceId: campaign.audienceId, status: "succeeded" },
        orderBy: { finishedAt: "desc" },
        select: { contacts: true, unmailable: true, fixable: true },
      })
    : null;
  if (audit && audit.contacts > 0 && audit.unmailable + audit.fixable > 0) {
    const share = Math.round(((audit.unmailable + audit.fixable) / audit.contacts) * 100);
    warnings.push(
      `The latest mailability audit found ${audit.unmailable} unmailable and ${audit.fixable} fixable of ${audit.contacts} contacts (${share}%): those are skipped unless fixed.`,
    );
  }
  const unprintable = await unprintableDrafts(db, { workspaceId: campaign.workspaceId, campaignId: campaign.id });
  if (unprintable.sentence) warnings.push(unprintable.sentence);
  return warnings;
}

/** Facts the card keeps for the re-check on accept. */
export const goLiveSnapshot = (facts: GoLiveFacts) => ({
  audienceContacts: facts.audienceContacts,
  unitCostCents: facts.unitCostCents,
});

/**
 * When a person accepts a go-live card: the sentence saying why it no longer describes the
 * campaign (audience changed by more than a tenth; budget no longer covers the audience it was
 * made for), or null when it still does. Cards made before this check (no snapshot) pass.
 */
export async function staleGoLiveReason(db: Db, card: ConfirmationCard): Promise<string | null> {
  if (card.kind !== "go_live" || !card.campaignId) return null;
  const params = (card.params ?? {}) as { audienceContacts?: unknown; unitCostCents?: unknown };
  if (typeof params.audienceContacts !== "number") return null;
  const campaign = await db.campaign.findFirst({
    where: { id: card.campaignId, workspaceId: card.workspaceId },
    select: { audienceId: true, budgetCents: true, holdoutShare: true },
  });
  if (!campaign?.audienceId) return null;
  const now = await db.audienceMember.count({
    where: { audienceId: campaign.audienceId, workspaceId: card.workspaceId },
  });
  const then = params.audienceContacts;
  if (Math.abs(now - then) > Math.max(then, 1) * AUDIENCE_DRIFT_LIMIT) {
    return `This card was made for an audience of ${then} contacts; it now has ${now}, so it no longer says what going live would do. Ask the agent to request go-live again.`;
  }
  const unit = typeof params.unitCostCents === "number" ? params.unitCostCents : 0;
  const cost = unit * Math.round(now * (1 - campaign.holdoutShare));
  if (unit > 0 && campaign.budgetCents < cost && (card.budgetAfterCents ?? 0) >= cost) {
    return `The budget is now ${usd(campaign.budgetCents)}, below the ${usd(cost)} this audience costs, which the card said it covered. Ask for a new go-live card.`;
  }
  return null;
}
