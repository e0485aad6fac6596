import { z } from "zod";
import { ownerProcedure, router } from "@/server/ground/trpc";
import { importOutcomes, ZImportOutcomesInput } from "./outcomes";
import { getProgrammeResults } from "./programme-results";
import { getCampaignResults } from "./results";

export const resultsRouter = router({
  campaign: ownerProcedure
    .input(z.object({ campaignId: z.string().min(1).max(64) }))
    .query(({ ctx, input }) =>
      getCampaignResults(ctx.db, { workspaceId: ctx.workspaceId, campaignId: input.campaignId }),
    ),
  programme: ownerProcedure.query(({ ctx }) => getProgrammeResults(ctx.db, { workspaceId: ctx.workspaceId })),
  importOutcomes: ownerProcedure.input(ZImportOutcomesInput).mutation(({ ctx, input }) =>
    importOutcomes(ctx.db, {
      workspaceId: ctx.workspaceId,
      rows: input.rows,
      source: input.source,
      actor: ctx.actor,
    }),
  ),
});
