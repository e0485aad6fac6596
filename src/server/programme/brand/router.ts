import { ownerProcedure, router } from "@/server/ground/trpc";
import { ZBrandKitUpdate } from "./schema";
import { getBrandKit, updateBrandKit } from "./service";

/** The brand kit for the owner's browser (Settings → Brand). */
export const brandRouter = router({
  get: ownerProcedure.query(({ ctx }) => getBrandKit(ctx.db, { workspaceId: ctx.workspaceId })),
  update: ownerProcedure
    .input(ZBrandKitUpdate)
    .mutation(({ ctx, input }) => updateBrandKit(ctx.db, { workspaceId: ctx.workspaceId, input, actor: ctx.actor })),
});
