import { z } from "zod";
import { ZAudienceId, ZContactId, ZPage } from "@/server/contacts/schema";
import { ownerProcedure, router } from "@/server/trpc";
import { ZMailabilityReason } from "./reasons";
import { ZAuditId, ZMailabilityStatus } from "./schema";
import { applyFix, auditProblems, contactMailability, getAudit, listAudits, runAudit } from "./service";

/** The mailability audit for the owner's browser. */
export const auditRouter = router({
  run: ownerProcedure.input(z.object({ audienceId: ZAudienceId })).mutation(({ ctx, input }) => runAudit(ctx.db, { workspaceId: ctx.workspaceId, audienceId: input.audienceId, actor: ctx.actor })),
  list: ownerProcedure.input(z.object({ audienceId: ZAudienceId.nullish() })).query(({ ctx, input }) => listAudits(ctx.db, { workspaceId: ctx.workspaceId, audienceId: input.audienceId })),
  get: ownerProcedure.input(z.object({ auditId: ZAuditId })).query(({ ctx, input }) => getAudit(ctx.db, { workspaceId: ctx.workspaceId, auditId: input.auditId })),
  problems: ownerProcedure
    .input(z.object({ auditId: ZAuditId, reason: ZMailabilityReason.nullish(), status: ZMailabilityStatus.nullish(), ...ZPage }))
    .query(({ ctx, input }) => auditProblems(ctx.db, { workspaceId: ctx.workspaceId, auditId: input.auditId, reason: input.reason, status: input.status, cursor: input.cursor, take: input.take })),
  contact: ownerProcedure.input(z.object({ contactId: ZContactId })).query(({ ctx, input }) => contactMailability(ctx.db, { workspaceId: ctx.workspaceId, contactId: input.contactId })),
  applyFix: ownerProcedure.input(z.object({ contactId: ZContactId })).mutation(({ ctx, input }) => applyFix(ctx.db, { workspaceId: ctx.workspaceId, contactId: input.contactId, actor: ctx.actor })),
});
