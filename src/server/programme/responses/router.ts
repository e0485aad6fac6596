import { z } from "zod";
import { ownerProcedure, router } from "@/server/ground/trpc";
import { RESPONSE_KINDS } from "./kinds";
import { listResponses, openGiftClaims, responseCounts } from "./list";

const ZCampaign = z.object({ campaignId: z.string().min(1).max(64) });
const ZPage = z.object({ cursor: z.string().max(64).nullish(), take: z.number().int().min(1).max(100).default(25) });

/** What recipients did with a campaign's links and hosted pages, for the owner's campaign page. */
export const responseRouter = router({
  list: ownerProcedure
    .input(ZCampaign.merge(ZPage).extend({ kind: z.enum(RESPONSE_KINDS).optional() }))
    .query(({ ctx, input }) =>
      listResponses(ctx.db, {
        workspaceId: ctx.workspaceId,
        campaignId: input.campaignId,
        kind: input.kind,
        cursor: input.cursor,
        take: input.take,
      }),
    ),
  counts: ownerProcedure
    .input(ZCampaign)
    .query(({ ctx, input }) => responseCounts(ctx.db, { workspaceId: ctx.workspaceId, campaignId: input.campaignId })),
  openClaims: ownerProcedure.input(ZCampaign.merge(ZPage)).query(({ ctx, input }) =>
    openGiftClaims(ctx.db, {
      workspaceId: ctx.workspaceId,
      campaignId: input.campaignId,
      cursor: input.cursor,
      take: input.take,
    }),
  ),
});
