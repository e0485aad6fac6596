import { ownerProcedure, router } from "@/server/trpc";
import { listAudiences } from "./service";

export const audienceRouter = router({
  list: ownerProcedure.query(({ ctx }) => listAudiences(ctx.db, { workspaceId: ctx.workspaceId })),
});
