import { ownerProcedure, router } from "@/server/trpc";
import { approveContract, createContract, listContracts, quoteContract, revokeContract } from "./contracts";
import { vendorCatalogues } from "./registry";
import { ZContractId, ZNewContract } from "./schema";

/** Printers (fulfilment contracts) for the owner's browser: propose at the vendor's quote, approve, revoke. */
export const fulfilmentRouter = router({
  contracts: ownerProcedure.query(({ ctx }) => listContracts(ctx.db, { workspaceId: ctx.workspaceId })),
  vendors: ownerProcedure.query(({ ctx }) => vendorCatalogues(ctx.db)),
  quote: ownerProcedure.input(ZNewContract.omit({ name: true })).query(({ ctx, input }) => quoteContract(ctx.db, input)),
  create: ownerProcedure.input(ZNewContract).mutation(({ ctx, input }) => createContract(ctx.db, { workspaceId: ctx.workspaceId, input, actor: ctx.actor })),
  approve: ownerProcedure.input(ZContractId).mutation(({ ctx, input }) => approveContract(ctx.db, { workspaceId: ctx.workspaceId, contractId: input.contractId, actor: { ...ctx.actor, kind: "user" } })),
  revoke: ownerProcedure.input(ZContractId).mutation(({ ctx, input }) => revokeContract(ctx.db, { workspaceId: ctx.workspaceId, contractId: input.contractId, actor: ctx.actor })),
});
