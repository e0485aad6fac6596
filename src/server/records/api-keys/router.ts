import { ownerProcedure, router } from "@/server/ground/trpc";
import { ZApiKeyIdInput, ZCreateApiKeyInput } from "./schema";
import { createApiKey, listApiKeys, revokeApiKey } from "./service";
import { entryEventExample } from "./example";

/** Settings -> API keys (owner only). */
export const apiKeyRouter = router({
  list: ownerProcedure.query(({ ctx }) => listApiKeys(ctx.db, { workspaceId: ctx.workspaceId })),
  /** A ready curl for one contact of a live campaign that accepts API events (null without one). */
  example: ownerProcedure.query(({ ctx }) => entryEventExample(ctx.db, { workspaceId: ctx.workspaceId })),
  create: ownerProcedure
    .input(ZCreateApiKeyInput)
    .mutation(({ ctx, input }) =>
      createApiKey(ctx.db, { workspaceId: ctx.workspaceId, name: input.name, scopes: input.scopes, actor: ctx.actor }),
    ),
  revoke: ownerProcedure
    .input(ZApiKeyIdInput)
    .mutation(({ ctx, input }) =>
      revokeApiKey(ctx.db, { workspaceId: ctx.workspaceId, keyId: input.keyId, actor: ctx.actor }),
    ),
});
