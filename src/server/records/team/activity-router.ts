import { z } from "zod";
import {
  activityActors,
  activityCsv,
  activityKinds,
  listActivity,
  ZActivityFilter,
} from "@/server/ground/audit/activity";
import { ownerProcedure, router } from "@/server/ground/trpc";

/** Settings → Activity: the workspace's audit trail, filtered, paged and exported as CSV. */
export const activityRouter = router({
  list: ownerProcedure
    .input(z.object({ filter: ZActivityFilter, cursor: z.string().min(1).max(64).optional() }))
    .query(({ ctx, input }) =>
      listActivity(ctx.db, { workspaceId: ctx.workspaceId, filter: input.filter, cursor: input.cursor }),
    ),
  filters: ownerProcedure.query(async ({ ctx }) => ({
    actors: await activityActors(ctx.db, { workspaceId: ctx.workspaceId }),
    kinds: await activityKinds(ctx.db, { workspaceId: ctx.workspaceId }),
  })),
  exportCsv: ownerProcedure
    .input(z.object({ filter: ZActivityFilter }))
    .query(({ ctx, input }) => activityCsv(ctx.db, { workspaceId: ctx.workspaceId, filter: input.filter })),
});
