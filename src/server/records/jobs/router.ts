import { z } from "zod";
import { ownerProcedure, router } from "@/server/ground/trpc";
import { ZJobId, ZJobKind } from "./schema";
import { cancelJob, getJob, jobView, listJobs } from "./service";

/** Jobs for the owner's browser: one progress view for every kind of long work. */
export const jobRouter = router({
  get: ownerProcedure
    .input(ZJobId)
    .query(async ({ ctx, input }) =>
      jobView(await getJob(ctx.db, { workspaceId: ctx.workspaceId, jobId: input.jobId })),
    ),
  list: ownerProcedure
    .input(
      z.object({
        kind: ZJobKind.optional(),
        cursor: z.string().max(64).nullish(),
        take: z.number().int().min(1).max(100).default(25),
      }),
    )
    .query(async ({ ctx, input }) => {
      const page = await listJobs(ctx.db, {
        workspaceId: ctx.workspaceId,
        kind: input.kind,
        cursor: input.cursor,
        take: input.take,
      });
      return { jobs: page.jobs.map((j) => jobView(j)), nextCursor: page.nextCursor };
    }),
  cancel: ownerProcedure
    .input(ZJobId)
    .mutation(async ({ ctx, input }) =>
      jobView(await cancelJob(ctx.db, { workspaceId: ctx.workspaceId, jobId: input.jobId, actor: ctx.actor })),
    ),
});
