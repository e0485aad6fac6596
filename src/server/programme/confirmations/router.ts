import { z } from "zod";
import { signalWork } from "@/server/ground/signals/entry-wake";
import { ownerProcedure, router } from "@/server/ground/trpc";
import { countPendingCards, decideCard, listCards } from "./service";

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
      });
      signalWork();
      return card;
    }),
});
