import { z } from "zod";
import { ownerProcedure, router } from "@/server/ground/trpc";
import { ZPage } from "./schema";
import { ZSuppressionEntry, ZSuppressionReason } from "./suppressions";
import {
  addSuppressions,
  importSuppressionsCsv,
  listSuppressions,
  MAX_SUPPRESSION_CSV_CHARS,
  removeSuppression,
  suppressionCounts,
} from "./suppressions-service";

const ZKind = z.enum(["contact", "email", "address", "account", "domain"]);

/** The suppression list for the owner's browser. */
export const suppressionRouter = router({
  list: ownerProcedure
    .input(
      z.object({
        kind: ZKind.nullish(),
        reason: ZSuppressionReason.nullish(),
        search: z.string().max(100).nullish(),
        ...ZPage,
      }),
    )
    .query(({ ctx, input }) => {
      const { workspaceId, ...rest } = input;
      return listSuppressions(ctx.db, { workspaceId: ctx.workspaceId, ...rest });
    }),
  counts: ownerProcedure.query(({ ctx }) => suppressionCounts(ctx.db, { workspaceId: ctx.workspaceId })),
  add: ownerProcedure
    .input(z.object({ entries: z.array(ZSuppressionEntry).min(1).max(1000) }))
    .mutation(({ ctx, input }) =>
      addSuppressions(ctx.db, {
        workspaceId: ctx.workspaceId,
        entries: input.entries,
        source: "owner",
        actor: ctx.actor,
      }),
    ),
  remove: ownerProcedure
    .input(z.object({ suppressionId: z.string().min(1).max(64) }))
    .mutation(({ ctx, input }) =>
      removeSuppression(ctx.db, { workspaceId: ctx.workspaceId, suppressionId: input.suppressionId, actor: ctx.actor }),
    ),
  importCsv: ownerProcedure
    .input(
      z.object({
        csv: z.string().min(1).max(MAX_SUPPRESSION_CSV_CHARS, "The file is larger than 5 MB; split it."),
        defaultReason: ZSuppressionReason,
      }),
    )
    .mutation(({ ctx, input }) =>
      importSuppressionsCsv(ctx.db, {
        workspaceId: ctx.workspaceId,
        csv: input.csv,
        defaultReason: input.defaultReason,
        actor: ctx.actor,
      }),
    ),
});
