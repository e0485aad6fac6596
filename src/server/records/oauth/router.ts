import { z } from "zod";
import { ownerProcedure, router } from "@/server/ground/trpc";
import { listGrants, revokeGrant } from "./grants";

/** Settings -> Connected agents. */
export const connectedAgentsRouter = router({
  list: ownerProcedure.query(({ ctx }) => listGrants(ctx.db, { workspaceId: ctx.workspaceId })),
  revoke: ownerProcedure
    .input(z.object({ grantId: z.string().min(1).max(64) }))
    .mutation(({ ctx, input }) =>
      revokeGrant(ctx.db, { workspaceId: ctx.workspaceId, grantId: input.grantId, actor: ctx.actor }),
    ),
});
