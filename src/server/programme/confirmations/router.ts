import { z } from "zod";
import { signalWork } from "@/server/ground/signals/entry-wake";
import { ownerProcedure, router } from "@/server/ground/trpc";
import { countPendingCards, decideCard, listCards } from "./service";
import { requestBudget, requestGoLive, requestResume } from "./requests";

const ZCampaignRef = z.object({ campaignId: z.string().min(1).max(64) });

/**
 * The workspace's inbox of confirmation cards. Deciding is only here, behind a signed-in person's
 * browser session (an approver, admin or owner): no agent token, API key or link can accept a card.
 */
export const confirmationRouter = router({
  list: ownerProcedure
    .input(z.object({ status: z.enum(["pending", "decided"]) }))
    .query(({ ctx, input }) => listCards(ctx.db, { workspaceId: ctx.workspaceId, status: input.status })),
  pendingCount: ownerProcedure.query(({ ctx }) => countPendingCards(ctx.db, { workspaceId: ctx.workspaceId })),
  decide: ownerProcedure
    .input(z.object({ cardId: z.string().min(1).max(64), decision: z.enum(["accept", "decline"]) }))
    .mutation(async ({ ctx, input }) => {
      const card = await decideCard(ctx.db, {
        workspaceId: ctx.workspaceId,
        cardId: input.cardId,
        decision: input.decision,
        user: { id: ctx.user.id, email: ctx.user.email },
        approvalLimitCents: ctx.role === "approver" ? ctx.approvalLimitCents : null,
        role: ctx.role,
      });
      signalWork();
      return card;
    }),
  /** A member's go-live: a card for an approver, admin or owner; the campaign is unchanged until one accepts it. */
  requestGoLive: ownerProcedure.input(ZCampaignRef).mutation(
    async ({ ctx, input }) =>
      (
        await requestGoLive(ctx.db, {
          workspaceId: ctx.workspaceId,
          campaignId: input.campaignId,
          requestedBy: ctx.actor,
        })
      ).card,
  ),
  /** A member's budget: a card to raise the campaign's budget to `budgetCents`. */
  requestBudget: ownerProcedure
    .input(ZCampaignRef.extend({ budgetCents: z.number().int().min(1).max(100_000_000_00) }))
    .mutation(
      async ({ ctx, input }) =>
        (
          await requestBudget(ctx.db, {
            workspaceId: ctx.workspaceId,
            campaignId: input.campaignId,
            budgetCents: input.budgetCents,
            requestedBy: ctx.actor,
          })
        ).card,
    ),
  /** A member's resume of a paused campaign: a card, since it spends again. */
  requestResume: ownerProcedure.input(ZCampaignRef).mutation(
    async ({ ctx, input }) =>
      (
        await requestResume(ctx.db, {
          workspaceId: ctx.workspaceId,
          campaignId: input.campaignId,
          requestedBy: ctx.actor,
        })
      ).card,
  ),
});
