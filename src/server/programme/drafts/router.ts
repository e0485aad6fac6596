import { z } from "zod";
import { ownerProcedure, router } from "@/server/ground/trpc";
import { ZDraftBlocks, ZDraftFilter, ZDraftId } from "./schema";
import { draftImages, draftSummary, getDraft, listDrafts, requestDraftGeneration, updateDraftBlocks } from "./service";

const ZCampaignId = z.string().min(1).max(64);

/** A campaign's drafts for the owner's browser: generate (a job), the grid, one draft, and a recipient's own copy. */
export const draftRouter = router({
  summary: ownerProcedure
    .input(z.object({ campaignId: ZCampaignId }))
    .query(({ ctx, input }) => draftSummary(ctx.db, { workspaceId: ctx.workspaceId, campaignId: input.campaignId })),
  generate: ownerProcedure.input(z.object({ campaignId: ZCampaignId })).mutation(async ({ ctx, input }) => {
    const { job, created } = await requestDraftGeneration(ctx.db, {
      workspaceId: ctx.workspaceId,
      campaignId: input.campaignId,
      actor: ctx.actor,
    });
    return { jobId: job.id, created };
  }),
  list: ownerProcedure
    .input(
      z.object({
        campaignId: ZCampaignId,
        filter: ZDraftFilter.nullish(),
        cursor: z.string().max(64).nullish(),
        take: z.number().int().min(1).max(60).default(24),
      }),
    )
    .query(({ ctx, input }) =>
      listDrafts(ctx.db, {
        workspaceId: ctx.workspaceId,
        campaignId: input.campaignId,
        filter: input.filter,
        cursor: input.cursor,
        take: input.take,
      }),
    ),
  get: ownerProcedure.input(z.object({ draftId: ZDraftId })).query(async ({ ctx, input }) => {
    const draft = await getDraft(ctx.db, { workspaceId: ctx.workspaceId, draftId: input.draftId });
    const pages = await draftImages(ctx.db, { workspaceId: ctx.workspaceId, draftId: input.draftId, widthPx: 900 });
    return {
      ...draft,
      pages: pages.map((p) => ({ label: p.label, src: `data:image/png;base64,${p.png.toString("base64")}` })),
    };
  }),
  update: ownerProcedure.input(z.object({ draftId: ZDraftId, blocks: ZDraftBlocks })).mutation(({ ctx, input }) =>
    updateDraftBlocks(ctx.db, {
      workspaceId: ctx.workspaceId,
      draftId: input.draftId,
      blocks: input.blocks,
      actor: ctx.actor,
    }),
  ),
});
