import { ownerProcedure, router, signedInProcedure } from "@/server/ground/trpc";
import { ZCreateWorkspaceInput } from "./schema";
import { firstRunChecklist } from "./first-run";
import { createWorkspaceForUser, getWorkspaceSummary, listWorkspacesOf } from "./service";

export const workspaceRouter = router({
  list: signedInProcedure.query(({ ctx }) => listWorkspacesOf(ctx.db, ctx.user.id)),
  create: signedInProcedure
    .input(ZCreateWorkspaceInput)
    .mutation(({ ctx, input }) =>
      createWorkspaceForUser(ctx.db, { name: input.name, userId: ctx.user.id, actor: ctx.actor }),
    ),
  summary: ownerProcedure.query(({ ctx }) => getWorkspaceSummary(ctx.db, { workspaceId: ctx.workspaceId })),
  firstRun: ownerProcedure.query(({ ctx }) => firstRunChecklist(ctx.db, { workspaceId: ctx.workspaceId })),
});
