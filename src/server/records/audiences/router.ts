import { z } from "zod";
import { ZAudienceId, ZContactFilter, ZPage } from "@/server/records/contacts/schema";
import { ownerProcedure, router } from "@/server/ground/trpc";
import { ZAudienceCreate, ZAudienceMembersChange, ZAudienceName, ZContactIds } from "./schema";
import {
  addAudienceContacts,
  createAudience,
  deleteAudience,
  getAudience,
  listAudiencePage,
  listAudiences,
  removeAudienceContacts,
  renameAudience,
} from "./service";

export const audienceRouter = router({
  /** Every audience with its size, for pickers. */
  list: ownerProcedure.query(({ ctx }) => listAudiences(ctx.db, { workspaceId: ctx.workspaceId })),
  page: ownerProcedure.input(z.object({ search: z.string().max(100).nullish(), ...ZPage })).query(({ ctx, input }) =>
    listAudiencePage(ctx.db, {
      workspaceId: ctx.workspaceId,
      search: input.search,
      cursor: input.cursor,
      take: input.take,
    }),
  ),
  get: ownerProcedure
    .input(z.object({ audienceId: ZAudienceId }))
    .query(({ ctx, input }) => getAudience(ctx.db, { workspaceId: ctx.workspaceId, audienceId: input.audienceId })),
  create: ownerProcedure.input(ZAudienceCreate).mutation(({ ctx, input }) => {
    const { workspaceId, ...rest } = input;
    return createAudience(ctx.db, { workspaceId: ctx.workspaceId, ...rest, actor: ctx.actor });
  }),
  addContacts: ownerProcedure
    .input(z.object({ audienceId: ZAudienceId, contactIds: ZContactIds.optional(), filter: ZContactFilter.optional() }))
    .mutation(({ ctx, input }) =>
      addAudienceContacts(ctx.db, {
        workspaceId: ctx.workspaceId,
        audienceId: input.audienceId,
        contactIds: input.contactIds,
        filter: input.filter,
        actor: ctx.actor,
      }),
    ),
  removeContacts: ownerProcedure.input(ZAudienceMembersChange).mutation(({ ctx, input }) =>
    removeAudienceContacts(ctx.db, {
      workspaceId: ctx.workspaceId,
      audienceId: input.audienceId,
      contactIds: input.contactIds,
      actor: ctx.actor,
    }),
  ),
  rename: ownerProcedure.input(z.object({ audienceId: ZAudienceId, name: ZAudienceName })).mutation(({ ctx, input }) =>
    renameAudience(ctx.db, {
      workspaceId: ctx.workspaceId,
      audienceId: input.audienceId,
      name: input.name,
      actor: ctx.actor,
    }),
  ),
  delete: ownerProcedure
    .input(z.object({ audienceId: ZAudienceId }))
    .mutation(({ ctx, input }) =>
      deleteAudience(ctx.db, { workspaceId: ctx.workspaceId, audienceId: input.audienceId, actor: ctx.actor }),
    ),
});
