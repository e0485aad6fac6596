import type { Campaign, ConfirmationCard } from "@/generated/prisma/client";
import type { Actor } from "@/server/ground/audit/service";
import { goLiveEntryPreview, goLiveEntrySentences } from "@/server/programme/campaigns/go-live-preview";
import { requireCampaign } from "@/server/records/campaign-records/lookup";
import { goLiveProblems, refuseGoLiveOnAuditPlan } from "@/server/programme/campaigns/service";
import type { Db } from "@/server/ground/db";
import { draftsCardSentence } from "@/server/programme/drafts/service";
import { AppError } from "@/server/ground/errors";
import { composePiece } from "@/server/programme/designs/compose";
import { loadRenderContext } from "@/server/programme/drafts/render";
import { billingAdapter } from "@/server/programme/plans/billing";
import { PLANS, type TPlan } from "@/server/programme/plans/plans";
import { billedByStripe } from "@/server/programme/plans/service";
import { audienceCostEstimate } from "@/server/programme/fulfilment/prices";
import { pricePerPiece, type TContractPrices } from "@/server/records/pieces/contract-price";
import { chargedPriceRange, piecePriceWords, pricesVaryByCountry } from "@/server/programme/fulfilment/price-words";
import { goLiveReadinessWarnings, goLiveSnapshot } from "./go-live-checks";
import { createKeyedCard } from "@/server/records/cards/store";

/** How long a person has to decide an agent's request before the card expires. */
export const REQUEST_CARD_TTL_HOURS = 72;

const usd = (cents: number) =>
  `${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} USD`;

/**
 * The card's sentence on what pieces cost, in the words the owner's pages use (price-words.ts): one
 * price, or the contract's range by the recipient's country with this audience's countries' prices,
 * and the estimate from the audience's countries.
 */
function piecePriceSentence(
  printer: { name: string } & TContractPrices,
  estimate: { byCountry: { country: string | null; contacts: number; unitCostCents: number }[]; totalCents: number },
) {
  if (!pricesVaryByCountry(printer))
    return `${printer.name}: ${piecePriceWords(printer, usd)}; about ${usd(estimate.totalCents)} for the audience.`;
  const shown = estimate.byCountry.slice(0, 5).map((r) => `${r.country ?? "no country"} ${usd(r.unitCostCents)}`);
  const more = estimate.byCountry.length > 5 ? ` and ${estimate.byCountry.length - 5} more countries` : "";
  return `${printer.name}: ${piecePriceWords(printer, usd)} (this audience: ${shown.join(", ")}${more}); about ${usd(estimate.totalCents)} for the audience's countries.`;
}
const expiry = (now: Date) => new Date(now.getTime() + REQUEST_CARD_TTL_HOURS * 3600_000);

export interface RequestOutcome {
  card: ConfirmationCard;
  /** False when an identical request was already waiting. */
  created: boolean;
}

/**
 * A sample of the copy the card approves, for the first contact of the audience: their draft when
 * drafts were generated, otherwise the campaign's text (or its design's) filled for them.
 */
async function sampleCopy(db: Db, campaign: Campaign) {
  const member = campaign.audienceId
    ? await db.audienceMember.findFirst({
        where: { audienceId: campaign.audienceId, workspaceId: campaign.workspaceId },
        orderBy: { contactId: "asc" },
        select: { contact: { include: { account: { select: { name: true, domain: true } } } } },
      })
    : null;
  if (!member) return null;
  const c = member.contact;
  const recipient = `${c.firstName} ${c.lastName}`.trim();
  const draft = await db.draft.findUnique({
    where: { campaignId_contactId: { campaignId: campaign.id, contactId: c.id } },
    select: { id: true, blocks: true },
  });
  const blocks = draft
    ? (draft.blocks as Record<string, string>)
    : composePiece({
        ...(await loadRenderContext(db, { workspaceId: campaign.workspaceId, campaign })),
        title: campaign.name,
        campaignCopy: campaign,
        contact: c,
        response: { url: "", label: "" },
      }).blocks;
  return {
    contactId: c.id,
    draftId: draft?.id ?? null,
    recipient,
    headline: blocks.headline ?? "",
    body: blocks.body ?? "",
    signOff: blocks.signOff ?? "",
  };
}

/**
 * An agent or a member asks for a draft to go live. Nothing changes until an approver, an admin or the owner accepts the card. The card
 * shows the copy it approves (filled for a sample recipient), how many accounts will be mailed and
 * held out, the price and the budget it lets the campaign spend, and says so plainly when nothing
 * can be mailed yet (the free audit plan, no approved printer, no budget).
 */
export async function requestGoLive(
  db: Db,
  p: { workspaceId: string; campaignId: string; requestedBy: Actor; now?: Date },
): Promise<RequestOutcome> {
  const now = p.now ?? new Date();
  const campaign = await requireCampaign(db, p);
  if (campaign.status !== "draft") {
    // A retry after the person accepted (URL-mode elicitation clients retry) gets the decided card.
    const accepted = await db.confirmationCard.findFirst({
      where: {
        workspaceId: p.workspaceId,
        kind: "go_live",
        campaignId: campaign.id,
        status: "accepted",
        executedAt: { not: null },
      },
      orderBy: { decidedAt: "desc" },
    });
    if (accepted) return { card: accepted, created: false };
    throw new AppError(
      "invalid_state",
      `The campaign is already ${campaign.status}; only a draft can be asked to go live.`,
      { nextStep: "Read it with campaigns_get." },
    );
  }
  await refuseGoLiveOnAuditPlan(db, { workspaceId: p.workspaceId, door: "agent" });
  const problems = await goLiveProblems(db, campaign);
  if (problems.length)
    throw new AppError("invalid_state", `Before asking to go live: ${problems.join("; ")}. Nothing was requested.`, {
      nextStep: "Fix those fields with campaigns_update_draft, then ask again.",
    });
  const [contacts, contract, sample] = await Promise.all([
    db.audienceMember.count({ where: { audienceId: campaign.audienceId!, workspaceId: p.workspaceId } }),
    campaign.fulfilmentContractId
      ? db.fulfilmentContract.findFirst({ where: { id: campaign.fulfilmentContractId, workspaceId: p.workspaceId } })
      : null,
    sampleCopy(db, campaign),
  ]);
  const printer = contract?.status === "approved" ? contract : null;
  // Each piece at its destination's price on the contract: who enters now, and the audience's countries.
  const entry = await goLiveEntryPreview(
    db,
    campaign,
    printer ? (country) => pricePerPiece(printer, country) : null,
    now,
  );
  const expectedRecipients = Math.round(contacts * (1 - campaign.holdoutShare));
  const estimate = printer
    ? await audienceCostEstimate(db, {
        workspaceId: p.workspaceId,
        audienceId: campaign.audienceId!,
        contract: printer,
        share: 1 - campaign.holdoutShare,
      })
    : null;
  // The cheapest piece (is the budget enough for any?) and the audience's average piece (for all of them?).
  const cheapest = printer ? chargedPriceRange(printer).lowCents : 0;
  const audiencePieces = estimate ? estimate.byCountry.reduce((sum, r) => sum + r.contacts, 0) : 0;
  const averagePiece = !estimate
    ? 0
    : audiencePieces > 0
      ? Math.round(estimate.byCountry.reduce((sum, r) => sum + r.contacts * r.unitCostCents, 0) / audiencePieces)
      : cheapest;
  const varies = printer ? pricesVaryByCountry(printer) : false;
  // Nobody enters at go-live (API entry only): the card states what mailing the audience would cost.
  const entersNow = entry.enterNow > 0;
  const warnings = [
    !printer
      ? "There is no approved printer contract for this campaign: nothing will be printed until it has one."
      : null,
    campaign.budgetCents === 0
      ? "The budget is 0 USD: no piece can be paid for until it is raised."
      : printer && campaign.budgetCents < cheapest
        ? `The budget of ${usd(campaign.budgetCents)} is less than ${varies ? "the cheapest piece costs" : "one piece costs"} (${usd(cheapest)}): no piece can be paid for until it is raised.`
        : null,
  ].filter((w): w is string => w !== null);
  const facts = {
    audienceContacts: contacts,
    expectedRecipients,
    unitCostCents: averagePiece,
    unitCostVaries: new Set(estimate?.byCountry.map((r) => r.unitCostCents)).size > 1,
    cheapestCents: cheapest,
    ...(estimate ? { estimatedCostCents: estimate.totalCents } : {}),
  };
  warnings.push(
    ...(await goLiveReadinessWarnings(db, campaign, {
      ...facts,
      contractSize: contract?.size ?? null,
      contractName: contract?.name ?? null,
    })),
  );
  const summary =
    [
      `${p.requestedBy.label} asks to take the ${campaign.format} campaign “${campaign.name}” live.`,
      `Going live approves its copy and lets it spend up to its budget of ${usd(campaign.budgetCents)} without another card: each entry event can then print and mail a piece.`,
      `Who gets it and its holdout of ${Math.round(campaign.holdoutShare * 100)}% of accounts are frozen (the audience has ${contacts} contacts).`,
      goLiveEntrySentences(entry),
      printer && estimate ? piecePriceSentence(printer, estimate) : "",
      campaign.reviewGate !== "none" ? "The review gate still asks you before each piece is printed." : "",
      ...warnings,
    ]
      .filter(Boolean)
      .join(" ") + (await draftsCardSentence(db, { workspaceId: p.workspaceId, campaignId: campaign.id }));
  return createKeyedCard(
    db,
    {
      workspaceId: p.workspaceId,
      kind: "go_live",
      title: `Take “${campaign.name}” live`,
      summary,
      params: {
        campaignId: campaign.id,
        draftVersion: campaign.draftVersion,
        sample,
        warnings,
        entry: { ...entry },
        ...goLiveSnapshot(facts),
        copy: { headline: campaign.headline, body: campaign.bodyTemplate, signOff: campaign.signOff },
      },
      campaignId: campaign.id,
      costCents: entersNow ? entry.estimatedCostCents : (estimate?.totalCents ?? 0),
      recipients: entersNow ? entry.toMail : expectedRecipients,
      budgetAfterCents: campaign.budgetCents,
      requestedBy: p.requestedBy,
      expiresAt: expiry(now),
      pendingKey: `go_live:${campaign.id}`,
    },
    now,
  );
}

/**
 * An agent asks to raise a campaign's budget. Spending more always waits for a person. A newer
 * request replaces an older pending one for the same campaign; the same amount returns the same card.
 */
export async function requestBudget(
  db: Db,
  p: { workspaceId: string; campaignId: string; budgetCents: number; requestedBy: Actor; now?: Date },
): Promise<RequestOutcome> {
  const now = p.now ?? new Date();
  const campaign = await requireCampaign(db, p);
  if (campaign.status === "ended")
    throw new AppError("invalid_state", "The campaign has ended; its budget cannot change. Nothing was requested.");
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: p.workspaceId }, select: { plan: true } });
  if (workspace.plan !== "paid") {
    throw new AppError(
      "plan_does_not_mail",
      "The workspace is on the free audit plan: nothing is printed or mailed, so a budget is never spent. Nothing was requested.",
      {
        nextStep:
          "Ask for the paid plan with plans_request_change first, or tell the person that nothing is mailed on the free audit plan.",
      },
    );
  }
  if (p.budgetCents <= campaign.budgetCents) {
    throw new AppError(
      "invalid_state",
      `The budget is already ${usd(campaign.budgetCents)}; ask for more than that. Nothing was requested.`,
      { nextStep: "Ask for a higher budgetCents." },
    );
  }
  const pendingKey = `raise_budget:${campaign.id}`;
  const existing = await db.confirmationCard.findFirst({
    where: { pendingKey, workspaceId: p.workspaceId, status: "pending", expiresAt: { gt: now } },
  });
  if (existing?.budgetAfterCents === p.budgetCents) return { card: existing, created: false };
  // A newer request replaces the older one: two budgets waiting for the same campaign would contradict each other.
  if (existing)
    await db.confirmationCard.updateMany({
      where: { id: existing.id, status: "pending" },
      data: { status: "expired", decidedAt: now },
    });
  return createKeyedCard(
    db,
    {
      workspaceId: p.workspaceId,
      kind: "raise_budget",
      title: `Raise the budget of “${campaign.name}” to ${usd(p.budgetCents)}`,
      summary: `${p.requestedBy.label} asks to raise the budget of “${campaign.name}” from ${usd(campaign.budgetCents)} to ${usd(p.budgetCents)} (${usd(campaign.spentCents)} spent so far, ${usd(campaign.reservedCents)} held for pieces on their way). Up to ${usd(p.budgetCents - campaign.budgetCents)} more may be spent on printing and postage.${existing ? ` It replaces the earlier request for ${usd(existing.budgetAfterCents ?? 0)}.` : ""}`,
      params: { campaignId: campaign.id, budgetCents: p.budgetCents },
      campaignId: campaign.id,
      costCents: p.budgetCents - campaign.budgetCents,
      budgetAfterCents: p.budgetCents,
      requestedBy: p.requestedBy,
      expiresAt: expiry(now),
      pendingKey,
    },
    now,
  );
}

/** An agent asks to resume a paused campaign: it spends again, so a person decides. */
export async function requestResume(
  db: Db,
  p: { workspaceId: string; campaignId: string; requestedBy: Actor; now?: Date },
): Promise<RequestOutcome> {
  const now = p.now ?? new Date();
  const campaign = await requireCampaign(db, p);
  if (campaign.status !== "paused")
    throw new AppError(
      "invalid_state",
      `The campaign is ${campaign.status}; only a paused campaign can be resumed. Nothing was requested.`,
      { nextStep: "Read it with campaigns_get." },
    );
  return createKeyedCard(
    db,
    {
      workspaceId: p.workspaceId,
      kind: "resume_campaign",
      title: `Resume “${campaign.name}”`,
      summary: `${p.requestedBy.label} asks to resume the paused campaign “${campaign.name}”. Its waiting entry events go on at once and it spends again, up to its budget of ${usd(campaign.budgetCents)} (${usd(campaign.spentCents)} spent so far).`,
      params: { campaignId: campaign.id },
      campaignId: campaign.id,
      budgetAfterCents: campaign.budgetCents,
      requestedBy: p.requestedBy,
      expiresAt: expiry(now),
      pendingKey: `resume_campaign:${campaign.id}`,
    },
    now,
  );
}

/**
 * What accepting a change_plan card does, in the words of the billing this installation uses
 * ("stripe_unbilled": Stripe bills, but not this workspace's paid plan, granted by the sandbox).
 */
function planCardSummary(plan: TPlan, who: string, billing: "sandbox" | "stripe" | "stripe_unbilled"): string {
  if (plan === "paid") {
    const price = `${usd(PLANS.paid.monthlyPriceCents)} a month`;
    return billing === "stripe"
      ? `${who} asks to choose the paid plan (${price}). Accepting opens Stripe Checkout to pay for the subscription; once Stripe confirms the payment, Mailing turns on: live campaigns print and mail through approved printers, each within its own budget.`
      : `${who} asks to choose the paid plan (${price}). Mailing turns on: live campaigns print and mail through approved printers, each within its own budget.`;
  }
  if (billing === "stripe_unbilled") {
    return `${who} asks to go back to the free audit plan. Stripe does not bill this workspace's paid plan (it was granted without a Stripe subscription), so there is nothing to cancel in Stripe: accepting ends it at once. New mail stops: pieces not yet with the printer are skipped; pieces the printer already has are still mailed.`;
  }
  return billing === "stripe"
    ? `${who} asks to go back to the free audit plan. Accepting opens Stripe's billing portal, where you cancel the subscription; when it ends, new mail stops at once: pieces not yet with the printer are skipped; pieces the printer already has are still mailed.`
    : `${who} asks to go back to the free audit plan. New mail stops at once: pieces not yet with the printer are skipped; pieces the printer already has are still mailed. The subscription is cancelled.`;
}

/**
 * An agent asks for the workspace to change plan. Only the owner can choose it, in the browser:
 * to paid turns mailing on (and starts the subscription), to audit stops new mail at once. A
 * request for the other plan replaces a pending one.
 */
export async function requestPlanChange(
  db: Db,
  p: { workspaceId: string; plan: TPlan; requestedBy: Actor; now?: Date },
): Promise<RequestOutcome> {
  const now = p.now ?? new Date();
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: p.workspaceId }, select: { plan: true } });
  if (workspace.plan === p.plan)
    throw new AppError(
      "invalid_state",
      `The workspace is already on the ${PLANS[p.plan].name.toLowerCase()}. Nothing was requested.`,
      { nextStep: "Read the plan with workspace_get_summary." },
    );
  const billing = billingAdapter().provider;
  const pendingKey = `change_plan:${p.workspaceId}`;
  const existing = await db.confirmationCard.findFirst({
    where: { pendingKey, workspaceId: p.workspaceId, status: "pending", expiresAt: { gt: now } },
  });
  if (existing && (existing.params as { plan?: string }).plan === p.plan) return { card: existing, created: false };
  if (existing)
    await db.confirmationCard.updateMany({
      where: { id: existing.id, status: "pending" },
      data: { status: "expired", decidedAt: now },
    });
  const target = PLANS[p.plan];
  return createKeyedCard(
    db,
    {
      workspaceId: p.workspaceId,
      kind: "change_plan",
      title: `Move the workspace to the ${target.name.toLowerCase()}`,
      summary: planCardSummary(
        p.plan,
        p.requestedBy.label,
        billing === "stripe" && p.plan === "audit" && !(await billedByStripe(db, p.workspaceId))
          ? "stripe_unbilled"
          : billing,
      ),
      params: { plan: p.plan },
      costCents: p.plan === "paid" ? target.monthlyPriceCents : undefined,
      requestedBy: p.requestedBy,
      expiresAt: expiry(now),
      pendingKey,
    },
    now,
  );
}
