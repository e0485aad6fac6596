import { z } from "zod";
import { requestBudget, requestGoLive } from "@/server/programme/confirmations/requests";
import { getCard, pageCards, pieceReviewCard, withdrawCard } from "@/server/programme/confirmations/service";
import { ZCursor, ZTake } from "./paging";
import { defineTool } from "../tool";
import { cardDetail, waitNote, ZCardDetail } from "./card-detail";

const ZCampaignIdArg = z.string().min(1).max(64).describe("The campaign's id (cmp_…).");

export const confirmationTools = [
  defineTool({
    name: "confirmations_list",
    title: "List confirmation cards",
    description:
      "One page of confirmation cards: requests waiting for a person (oldest first), or decided ones (newest first).",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({
      status: z
        .enum(["pending", "decided"])
        .default("pending")
        .describe("Waiting cards (oldest first) or decided ones (newest first)."),
      cursor: ZCursor,
      take: ZTake,
    }),
    result: z.object({ cards: z.array(ZCardDetail), nextCursor: z.string().nullable() }),
    run: async (ctx, a) => {
      const page = await pageCards(ctx.db, {
        workspaceId: ctx.workspaceId,
        status: a.status,
        cursor: a.cursor,
        take: a.take,
      });
      return {
        requested: `The ${a.status} confirmation cards.`,
        changed: [],
        result: { cards: page.cards.map((c) => cardDetail(ctx, c)), nextCursor: page.nextCursor },
      };
    },
  }),
  defineTool({
    name: "confirmations_get",
    title: "Read a confirmation card",
    description:
      "One card and its decision: pending, accepted (when the action ran, or why it failed), declined or expired. Poll it after a request.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({ cardId: z.string().min(1).max(64).describe("The card's id (card_…).") }),
    result: ZCardDetail,
    run: async (ctx, a) => ({
      requested: `The status of card ${a.cardId}.`,
      changed: [],
      result: cardDetail(ctx, await getCard(ctx.db, { workspaceId: ctx.workspaceId, cardId: a.cardId })),
    }),
  }),
  defineTool({
    name: "campaigns_request_go_live",
    title: "Ask to take a campaign live",
    description: `Asks an approver to take a draft live: approves its copy, freezes its entry policy and holdout, lets it print and spend. ${waitNote}`,
    scope: "campaigns:write",
    kind: "request",
    idempotent: true,
    input: z.object({ campaignId: ZCampaignIdArg }),
    result: ZCardDetail,
    run: async (ctx, a) => {
      const { card, created } = await requestGoLive(ctx.db, {
        workspaceId: ctx.workspaceId,
        campaignId: a.campaignId,
        requestedBy: ctx.actor,
      });
      return {
        requested: `Take campaign ${a.campaignId} live.`,
        changed: created ? [`Created confirmation card ${card.id}; the campaign is unchanged.`] : [],
        result: cardDetail(ctx, card),
      };
    },
  }),
  defineTool({
    name: "campaigns_request_budget_raise",
    title: "Ask to raise a campaign's budget",
    description: `Asks an approver to raise a campaign's budget. ${waitNote}`,
    scope: "campaigns:write",
    kind: "request",
    idempotent: true,
    input: z.object({
      campaignId: ZCampaignIdArg,
      budgetCents: z.number().int().min(1).max(100_000_000_00).describe("The new budget in cents (USD)."),
    }),
    result: ZCardDetail,
    run: async (ctx, a) => {
      const { card, created } = await requestBudget(ctx.db, {
        workspaceId: ctx.workspaceId,
        campaignId: a.campaignId,
        budgetCents: a.budgetCents,
        requestedBy: ctx.actor,
      });
      return {
        requested: `Raise the budget of ${a.campaignId} to ${a.budgetCents} cents.`,
        changed: created ? [`Created confirmation card ${card.id}; the budget is unchanged.`] : [],
        result: cardDetail(ctx, card),
      };
    },
  }),
  defineTool({
    name: "pieces_request_approval",
    title: "Ask to approve a piece for print",
    description: `Asks a person to approve a piece held by the review gate (pieces_list status pending_review), which then prints. ${waitNote}`,
    scope: "campaigns:write",
    kind: "request",
    idempotent: true,
    input: z.object({ pieceId: z.string().min(1).max(64).describe("The mail piece's id (pc_…).") }),
    result: ZCardDetail,
    run: async (ctx, a) => {
      const card = await pieceReviewCard(ctx.db, { workspaceId: ctx.workspaceId, pieceId: a.pieceId });
      return { requested: `Approve piece ${a.pieceId} for print.`, changed: [], result: cardDetail(ctx, card) };
    },
  }),
  defineTool({
    name: "confirmations_withdraw",
    title: "Withdraw your own pending card",
    description: "Takes back a pending card this agent asked for: it expires and nothing it asked for happens.",
    scope: "campaigns:write",
    kind: "write",
    idempotent: false,
    destructive: true,
    input: z.object({ cardId: z.string().min(1).max(64).describe("The card's id (card_…).") }),
    result: ZCardDetail,
    run: async (ctx, a) => {
      const card = await withdrawCard(ctx.db, {
        workspaceId: ctx.workspaceId,
        cardId: a.cardId,
        agentGrantId: ctx.grantId,
        actor: ctx.actor,
      });
      return {
        requested: `Withdraw card ${a.cardId}.`,
        changed: [`Withdrew card ${card.id} (“${card.title}”); it can no longer be accepted.`],
        result: cardDetail(ctx, card),
      };
    },
    errorHints: { not_found: "Find your pending cards in awaitingConfirmation or with confirmations_list." },
  }),
];
