import { ownerProcedure, router } from "@/server/ground/trpc";
import { ZChangePlan } from "./schema";
import { billingPortal, changePlan, getPlanOverview } from "./service";

/**
 * The Plan page. Changing plan is the owner's act in the browser (the page asks first): with the
 * sandbox it happens at once; with Stripe the paid plan answers `{ checkoutUrl }` (Stripe Checkout),
 * and "Manage billing" answers `{ portalUrl }` (Stripe's customer portal).
 */
export const planRouter = router({
  get: ownerProcedure.query(({ ctx }) => getPlanOverview(ctx.db, { workspaceId: ctx.workspaceId })),
  change: ownerProcedure
    .input(ZChangePlan)
    .mutation(({ ctx, input }) =>
      changePlan(ctx.db, { workspaceId: ctx.workspaceId, plan: input.plan, actor: ctx.actor }),
    ),
  billingPortal: ownerProcedure.mutation(({ ctx }) =>
    billingPortal(ctx.db, { workspaceId: ctx.workspaceId, actor: ctx.actor }),
  ),
});
