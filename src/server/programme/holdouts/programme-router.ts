import { z } from "zod";
import { ownerProcedure, router } from "@/server/ground/trpc";
import { setProgrammeHoldout, ZProgrammeHoldoutShare } from "./programme";

/** Merged into the workspace router: workspace.setProgrammeHoldout. */
export const programmeHoldoutRouter = router({
  setProgrammeHoldout: ownerProcedure
    .input(z.object({ share: ZProgrammeHoldoutShare }))
    .mutation(({ ctx, input }) =>
      setProgrammeHoldout(ctx.db, { workspaceId: ctx.workspaceId, share: input.share, actor: ctx.actor }),
    ),
});
