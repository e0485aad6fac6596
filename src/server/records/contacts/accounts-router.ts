import { z } from "zod";
import { ownerProcedure, router } from "@/server/ground/trpc";
import { getAccount, listAccounts } from "./accounts-service";
import { ZAccountId, ZPage } from "./schema";

/** Accounts (companies) for the owner's browser. */
export const accountRouter = router({
  list: ownerProcedure.input(z.object({ search: z.string().max(100).nullish(), ...ZPage })).query(({ ctx, input }) =>
    listAccounts(ctx.db, {
      workspaceId: ctx.workspaceId,
      search: input.search,
      cursor: input.cursor,
      take: input.take,
    }),
  ),
  get: ownerProcedure
    .input(z.object({ accountId: ZAccountId }))
    .query(({ ctx, input }) => getAccount(ctx.db, { workspaceId: ctx.workspaceId, accountId: input.accountId })),
});
