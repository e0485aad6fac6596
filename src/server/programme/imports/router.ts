import { z } from "zod";
import { ZPage } from "@/server/records/contacts/schema";
import { ownerProcedure, router } from "@/server/ground/trpc";
import { ZImportId, ZImportStartInput } from "./schema";
import {
  discardUpload,
  getImport,
  listImportDuplicates,
  listImportIssues,
  listImports,
  listUnstartedUploads,
  resumeImport,
  startImport,
} from "./service";

/** CSV imports for the owner's browser (the file itself is uploaded to /api/imports). */
export const contactImportRouter = router({
  list: ownerProcedure
    .input(z.object(ZPage))
    .query(({ ctx, input }) =>
      listImports(ctx.db, { workspaceId: ctx.workspaceId, cursor: input.cursor, take: input.take }),
    ),
  /** Files uploaded and never imported (at most 20, and how many there are). */
  uploads: ownerProcedure.query(({ ctx }) => listUnstartedUploads(ctx.db, { workspaceId: ctx.workspaceId })),
  get: ownerProcedure
    .input(z.object({ importId: ZImportId }))
    .query(({ ctx, input }) => getImport(ctx.db, { workspaceId: ctx.workspaceId, importId: input.importId })),
  issues: ownerProcedure
    .input(
      z.object({
        importId: ZImportId,
        kind: z.enum(["refused", "warning"]),
        cursor: z.number().int().min(0).nullish().describe("nextAfterRow of the previous page."),
        take: z.number().int().min(1).max(100).default(25),
      }),
    )
    .query(({ ctx, input }) =>
      listImportIssues(ctx.db, {
        workspaceId: ctx.workspaceId,
        importId: input.importId,
        kind: input.kind,
        afterRow: input.cursor,
        take: input.take,
      }),
    ),
  duplicates: ownerProcedure
    .input(
      z.object({
        importId: ZImportId,
        cursor: z.number().int().min(0).nullish().describe("nextAfterRow of the previous page."),
        take: z.number().int().min(1).max(100).default(25),
      }),
    )
    .query(({ ctx, input }) =>
      listImportDuplicates(ctx.db, {
        workspaceId: ctx.workspaceId,
        importId: input.importId,
        afterRow: input.cursor,
        take: input.take,
      }),
    ),
  start: ownerProcedure.input(ZImportStartInput).mutation(({ ctx, input }) => {
    const { workspaceId, ...rest } = input;
    return startImport(ctx.db, { ...rest, workspaceId: ctx.workspaceId, actor: ctx.actor });
  }),
  /** Discards a file uploaded and never imported; an import that has started is refused. */
  discard: ownerProcedure
    .input(z.object({ importId: ZImportId }))
    .mutation(({ ctx, input }) =>
      discardUpload(ctx.db, { workspaceId: ctx.workspaceId, importId: input.importId, actor: ctx.actor }),
    ),
  resume: ownerProcedure
    .input(z.object({ importId: ZImportId }))
    .mutation(({ ctx, input }) =>
      resumeImport(ctx.db, { workspaceId: ctx.workspaceId, importId: input.importId, actor: ctx.actor }),
    ),
});
