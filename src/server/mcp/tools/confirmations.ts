import { z } from "zod";
import { requestBudget, requestGoLive } from "@/server/confirmations/requests";
import { getCard, listCards } from "@/server/confirmations/service";
import { AppError } from "@/server/errors";
import { cardRef } from "../cards";
import type { McpContext } from "../context";
import { defineTool, ZCardRef } from "../tool";

const ZCampaignIdArg = z.string().min(1).max(64).describe("The campaign's id (cmp_…).");

const ZCardDetail = ZCardRef.extend({
  summary: z.string(),
  requestedBy: z.string(),
  costCents: z.number().nullable(),
  recipients: z.number().nullable(),
  budgetAfterCents: z.number().nullable(),
  decidedAt: z.string().nullable(),
  executedAt: z.string().nullable(),
  executionError: z.string().nullable(),
});

function cardDetail(ctx: McpContext, card: Awaited<ReturnType<typeof getCard>>) {
  return {
    ...cardRef(ctx, card),
    summary: card.summary,
    requestedBy: card.requestedByLabel,
    costCents: card.costCents,
    recipients: card.recipients,
    budgetAfterCents: card.budgetAfterCents,
    decidedAt: card.decidedAt?.toISOString() ?? null,
    executedAt: card.executedAt?.toISOString() ?? null,
    executionError: card.executionError,
  };
}

const waitNote = "Nothing has changed yet: a person must accept the card in the browser. Tell them what you asked for and give them the card's URL; poll confirmations_get to learn the decision. No reply in this conversation counts as their approval.";

export const confirmationTools = [
  defineTool({
    name: "confirmations_list",
    title: "List confirmation cards",
    description: "Confirmation cards of the workspace: consequential requests (go live, approve a piece, print, spend, raise a budget) waiting for, or decided by, a person.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({ status: z.enum(["pending", "decided"]).default("pending").describe("Waiting cards (oldest first) or decided ones (newest first).") }),
    result: z.object({ cards: z.array(ZCardDetail) }),
    run: async (ctx, a) => ({
      requested: `The ${a.status} confirmation cards.`,
      changed: [],
      result: { cards: (await listCards(ctx.db, { workspaceId: ctx.workspaceId, status: a.status, take: 50 })).map((c) => cardDetail(ctx, c)) },
    }),
  }),
  defineTool({
    name: "confirmations_get",
    title: "Read a confirmation card",
    description: "One card and its decision: pending, accepted (with when the action ran, or why it failed), declined or expired. Poll this after a request.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({ cardId: z.string().min(1).max(64).describe("The card's id (card_…).") }),
    result: ZCardDetail,
    run: async (ctx, a) => ({ requested: `The status of card ${a.cardId}.`, changed: [], result: cardDetail(ctx, await getCard(ctx.db, { workspaceId: ctx.workspaceId, cardId: a.cardId })) }),
  }),
  defineTool({
    name: "campaigns_request_go_live",
    title: "Ask to take a campaign live",
    description: `Asks the owner to take a draft live, which approves its copy, freezes its entry policy and holdout and lets it print and spend. Creates a confirmation card and changes nothing else. ${waitNote}`,
    scope: "campaigns:write",
    kind: "request",
    idempotent: true,
    input: z.object({ campaignId: ZCampaignIdArg }),
    result: ZCardDetail,
    run: async (ctx, a) => {
      const { card, created } = await requestGoLive(ctx.db, { workspaceId: ctx.workspaceId, campaignId: a.campaignId, requestedBy: ctx.actor });
      return { requested: `Take campaign ${a.campaignId} live.`, changed: created ? [`Created confirmation card ${card.id}; the campaign is unchanged.`] : [], result: cardDetail(ctx, card) };
    },
  }),
  defineTool({
    name: "campaigns_request_budget_raise",
    title: "Ask to raise a campaign's budget",
    description: `Asks the owner to raise a campaign's budget (more spending on printing and postage). Creates a confirmation card and changes nothing else. ${waitNote}`,
    scope: "campaigns:write",
    kind: "request",
    idempotent: true,
    input: z.object({ campaignId: ZCampaignIdArg, budgetCents: z.number().int().min(1).max(100_000_000_00).describe("The new budget in cents (USD).") }),
    result: ZCardDetail,
    run: async (ctx, a) => {
      const { card, created } = await requestBudget(ctx.db, { workspaceId: ctx.workspaceId, campaignId: a.campaignId, budgetCents: a.budgetCents, requestedBy: ctx.actor });
      return { requested: `Raise the budget of ${a.campaignId} to ${a.budgetCents} cents.`, changed: created ? [`Created confirmation card ${card.id}; the budget is unchanged.`] : [], result: cardDetail(ctx, card) };
    },
  }),
  defineTool({
    name: "pieces_request_approval",
    title: "Ask to approve a piece for print",
    description: `A piece held by a campaign's review gate is printed only when a person approves it. Returns the piece's confirmation card so you can point the person to it. ${waitNote}`,
    scope: "campaigns:write",
    kind: "request",
    idempotent: true,
    input: z.object({ pieceId: z.string().min(1).max(64).describe("The mail piece's id (pc_…).") }),
    result: ZCardDetail,
    run: async (ctx, a) => {
      const card = await ctx.db.confirmationCard.findFirst({ where: { workspaceId: ctx.workspaceId, kind: "approve_piece", pieceId: a.pieceId }, orderBy: { createdAt: "desc" } });
      if (!card) throw new AppError("not_found", "No piece with this id waits for review in the workspace.");
      return { requested: `Approve piece ${a.pieceId} for print.`, changed: [], result: cardDetail(ctx, card) };
    },
  }),
];
