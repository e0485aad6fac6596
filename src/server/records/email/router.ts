import { z } from "zod";
import { ownerProcedure, router } from "@/server/ground/trpc";
import { getOutboxMessage, listOutbox, outboxCounts, retryOutboxMessage } from "./outbox-view";
import { ZEmailMessageId, ZOutboxInput } from "./schema";
import { describeEmailSettings, emailSettings } from "./settings";
import { sendTestEmail } from "./test-send";

/** Settings → Email: the workspace's outbox, how mail leaves, a test message. */
export const emailRouter = router({
  setup: ownerProcedure.query(() => {
    const settings = emailSettings();
    return { transport: settings.transport, description: describeEmailSettings(settings) };
  }),
  outbox: ownerProcedure
    .input(ZOutboxInput)
    .query(({ ctx, input }) => listOutbox(ctx.db, { ...input, workspaceId: ctx.workspaceId })),
  counts: ownerProcedure.query(({ ctx }) => outboxCounts(ctx.db, { workspaceId: ctx.workspaceId })),
  message: ownerProcedure
    .input(z.object({ messageId: ZEmailMessageId }))
    .query(({ ctx, input }) => getOutboxMessage(ctx.db, { ...input, workspaceId: ctx.workspaceId })),
  retry: ownerProcedure
    .input(z.object({ messageId: ZEmailMessageId }))
    .mutation(({ ctx, input }) =>
      retryOutboxMessage(ctx.db, { ...input, workspaceId: ctx.workspaceId, actor: ctx.actor }),
    ),
  sendTest: ownerProcedure.mutation(({ ctx }) =>
    sendTestEmail(ctx.db, { workspaceId: ctx.workspaceId, user: ctx.user, actor: ctx.actor }),
  ),
});
