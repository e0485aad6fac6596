import { ownerProcedure, router } from "@/server/trpc";
import { listContracts } from "./contracts";

export const fulfilmentRouter = router({
  contracts: ownerProcedure.query(({ ctx }) => listContracts(ctx.db, { workspaceId: ctx.workspaceId })),
});
