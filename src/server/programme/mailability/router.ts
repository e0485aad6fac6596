import { z } from "zod";
import { ZAudienceId, ZContactId, ZPage } from "@/server/records/contacts/schema";
import { ownerProcedure, router } from "@/server/ground/trpc";
import { auditForCampaign } from "./campaign-audit";
import { applyFix, applyFixes, BULK_FIX_MAX, contactMailability } from "./fixes";
import { ZMailabilityReason } from "./reasons";
import { hasAuditTarget, ZAuditId, ZAuditTarget, ZAuditTargetFields, ZMailabilityStatus } from "./schema";
import { auditEstimate, auditProblems, getAudit, listAudits, resumeAudit, startAudit } from "./service";

/** The mailability audit for the owner's browser. */
export const auditRouter = router({
  estimate: ownerProcedure.input(ZAuditTarget).query(({ ctx, input }) =>
    auditEstimate(ctx.db, {
      workspaceId: ctx.workspaceId,
      audienceId: input.audienceId,
      campaignId: input.campaignId,
    }),
  ),
  run: ownerProcedure
    .input(
      ZAuditTargetFields.extend({ verify: z.boolean().default(false) }).refine(hasAuditTarget, {
        message: "Give audienceId or campaignId.",
      }),
    )
    .mutation(({ ctx, input }) =>
      startAudit(ctx.db, {
        workspaceId: ctx.workspaceId,
        audienceId: input.audienceId,
        campaignId: input.campaignId,
        verify: input.verify,
        actor: ctx.actor,
      }),
    ),
  list: ownerProcedure
    .input(z.object({ audienceId: ZAudienceId.nullish(), campaignId: z.string().max(64).nullish(), ...ZPage }))
    .query(({ ctx, input }) =>
      listAudits(ctx.db, {
        workspaceId: ctx.workspaceId,
        audienceId: input.audienceId,
        campaignId: input.campaignId,
        cursor: input.cursor,
        take: input.take,
      }),
    ),
  /** The audit that answers for a campaign (its own, or its audience's judged alike) and why it is out of date, if it is. */
  forCampaign: ownerProcedure
    .input(z.object({ campaignId: z.string().max(64) }))
    .query(({ ctx, input }) =>
      auditForCampaign(ctx.db, { workspaceId: ctx.workspaceId, campaignId: input.campaignId }),
    ),
  resume: ownerProcedure
    .input(z.object({ auditId: ZAuditId }))
    .mutation(({ ctx, input }) =>
      resumeAudit(ctx.db, { workspaceId: ctx.workspaceId, auditId: input.auditId, actor: ctx.actor }),
    ),
  get: ownerProcedure
    .input(z.object({ auditId: ZAuditId }))
    .query(({ ctx, input }) => getAudit(ctx.db, { workspaceId: ctx.workspaceId, auditId: input.auditId })),
  problems: ownerProcedure
    .input(
      z.object({
        auditId: ZAuditId,
        reason: ZMailabilityReason.nullish(),
        status: ZMailabilityStatus.nullish(),
        ...ZPage,
      }),
    )
    .query(({ ctx, input }) =>
      auditProblems(ctx.db, {
        workspaceId: ctx.workspaceId,
        auditId: input.auditId,
        reason: input.reason,
        status: input.status,
        cursor: input.cursor,
        take: input.take,
      }),
    ),
  contact: ownerProcedure
    .input(z.object({ contactId: ZContactId }))
    .query(({ ctx, input }) =>
      contactMailability(ctx.db, { workspaceId: ctx.workspaceId, contactId: input.contactId }),
    ),
  applyFix: ownerProcedure
    .input(z.object({ contactId: ZContactId }))
    .mutation(({ ctx, input }) =>
      applyFix(ctx.db, { workspaceId: ctx.workspaceId, contactId: input.contactId, actor: ctx.actor }),
    ),
  applyFixes: ownerProcedure
    .input(
      z.object({
        auditId: ZAuditId,
        contactIds: z.array(ZContactId).min(1).max(BULK_FIX_MAX).nullish(),
        reason: ZMailabilityReason.nullish(),
      }),
    )
    .mutation(({ ctx, input }) =>
      applyFixes(ctx.db, {
        workspaceId: ctx.workspaceId,
        auditId: input.auditId,
        contactIds: input.contactIds,
        reason: input.reason,
        actor: ctx.actor,
      }),
    ),
});
