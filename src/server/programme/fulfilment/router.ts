import { ownerProcedure, router } from "@/server/ground/trpc";
import { approveContract, createContract, listContracts, quoteContract, revokeContract } from "./contracts";
import { connectableVendors, connectVendor, disconnectVendor, listVendorConnections } from "./connections";
import { vendorCatalogues } from "./registry";
import { ZConnectVendor, ZContractId, ZNewContract, ZVendorConnectionId } from "./schema";

/** Printers (fulfilment contracts) for the owner's browser: propose at the vendor's quote, approve, revoke. */
export const fulfilmentRouter = router({
  contracts: ownerProcedure.query(({ ctx }) => listContracts(ctx.db, { workspaceId: ctx.workspaceId })),
  vendors: ownerProcedure.query(({ ctx }) => vendorCatalogues(ctx.db)),
  quote: ownerProcedure
    .input(ZNewContract.omit({ name: true }))
    .query(({ ctx, input }) => quoteContract(ctx.db, input)),
  create: ownerProcedure
    .input(ZNewContract)
    .mutation(({ ctx, input }) => createContract(ctx.db, { workspaceId: ctx.workspaceId, input, actor: ctx.actor })),
  approve: ownerProcedure.input(ZContractId).mutation(({ ctx, input }) =>
    approveContract(ctx.db, {
      workspaceId: ctx.workspaceId,
      contractId: input.contractId,
      actor: { ...ctx.actor, kind: "user" },
    }),
  ),
  /** The workspace's print vendor accounts (never their keys). */
  vendorConnections: ownerProcedure.query(({ ctx }) => listVendorConnections(ctx.db, { workspaceId: ctx.workspaceId })),
  /** The vendors a workspace can connect its own account of, and what each fulfils. */
  connectableVendors: ownerProcedure.query(() => connectableVendors()),
  connectVendor: ownerProcedure
    .input(ZConnectVendor)
    .mutation(({ ctx, input }) => connectVendor(ctx.db, { workspaceId: ctx.workspaceId, input, actor: ctx.actor })),
  disconnectVendor: ownerProcedure
    .input(ZVendorConnectionId)
    .mutation(({ ctx, input }) =>
      disconnectVendor(ctx.db, { workspaceId: ctx.workspaceId, connectionId: input.connectionId, actor: ctx.actor }),
    ),
  revoke: ownerProcedure
    .input(ZContractId)
    .mutation(({ ctx, input }) =>
      revokeContract(ctx.db, { workspaceId: ctx.workspaceId, contractId: input.contractId, actor: ctx.actor }),
    ),
});
