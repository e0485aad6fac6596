import { ownerProcedure, router } from "@/server/trpc";
import { ZChangePlan } from "./schema";
import { changePlan, getPlanOverview } from "./service";

/** The Plan page. Changing plan is the owner's act in the browser (the page asks first). */
export const planRouter = router({
  get: ownerProcedure.query(({ ctx }) => getPlanOverview(ctx.db, { workspaceId: ctx.workspaceId })),
  change: ownerProcedure.input(ZChangePlan).mutation(({ ctx, input }) => changePlan(ctx.db, { workspaceId: ctx.workspaceId, plan: input.plan, actor: ctx.actor })),
});
