import { z } from "zod";
import { ZAudienceId, ZContactId } from "@/server/records/contacts/schema";
import { applyFix, applyFixes, BULK_FIX_MAX, describeFix } from "@/server/programme/mailability/fixes";
import { ZMailabilityReason } from "@/server/programme/mailability/reasons";
import {
  ZAddressFields,
  ZAddressFix,
  ZAuditId,
  ZAuditOut,
  ZAuditStatus,
  ZAuditTargetFields,
  ZCampaignRef,
  ZMailabilityStatus,
  ZSample,
  ZVerdict,
} from "@/server/programme/mailability/schema";
import { auditEstimate, auditProblems, getAudit, listAudits, startAudit } from "@/server/programme/mailability/service";
import { VERIFICATION_MODES } from "@/server/programme/mailability/verifiers/types";
import { AppError } from "@/server/ground/errors";
import { logWork } from "../logging";
import { defineTool } from "../tool";

const target = (a: { audienceId?: string | null; campaignId?: string | null }) => {
  if (!a.audienceId && !a.campaignId)
    throw new AppError("validation_failed", "Give audienceId (audiences_list) or campaignId (campaigns_list).");
  return a;
};

/** The mailability audit: which contacts can really be mailed, why not, and how to fix them. */
export const auditTools = [
  defineTool({
    name: "audits_run",
    title: "Audit an audience's mailability",
    description:
      "Starts the mailability audit of an audience or a campaign's audience: each contact becomes mailable, fixable or unmailable with every reason (the lifecycle's verdict; /docs/mailability). Small audiences finish in the call; else follow with audits_get. Works on both plans; changes no contact.",
    scope: "contacts:write",
    kind: "write",
    idempotent: false,
    input: ZAuditTargetFields.extend({
      verify: z
        .boolean()
        .default(false)
        .describe(
          "Also verify each address with the verifier (missing_unit, undeliverable); audits_estimate gives the cost.",
        ),
    }),
    result: z.object({ auditId: z.string(), status: ZAuditStatus }),
    run: async (ctx, a) => {
      const started = await startAudit(ctx.db, {
        workspaceId: ctx.workspaceId,
        ...target(a),
        verify: a.verify,
        actor: ctx.actor,
      });
      await logWork(ctx.log, `Audit ${started.auditId}`, { ...started, progress: null, error: null }, started);
      return {
        requested: `Audit the mailability of ${a.campaignId ? `campaign ${a.campaignId}'s audience` : `audience ${a.audienceId}`}${a.verify ? ", with address verification" : ""}.`,
        changed: [
          `Audit ${started.auditId} ${started.status === "succeeded" ? "recorded" : `started (${started.status})`}.`,
        ],
        result: started,
      };
    },
  }),
  defineTool({
    name: "audits_estimate",
    title: "Estimate an audit's verification cost",
    description:
      "For audits_run with verify: the verifier, its price per address in cents, addresses not yet cached (cached are free), and estimateCents. Without verify an audit is free.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: ZAuditTargetFields,
    result: z.object({
      audienceId: z.string(),
      audienceName: z.string(),
      contacts: z.number().int(),
      addresses: z.number().int().describe("Distinct normalised addresses with a street line."),
      cachedAddresses: z.number().int(),
      addressesToVerify: z.number().int(),
      verifier: z.object({
        name: z.string(),
        label: z.string(),
        mode: z
          .enum(VERIFICATION_MODES)
          .describe("live looks addresses up; test (a test key) and sandbox verify nothing."),
        domesticCents: z.number().int(),
        internationalCents: z.number().int(),
      }),
      estimateCents: z.number().int(),
      cacheDays: z
        .number()
        .int()
        .describe("How long a verifier's answer is kept before the address is verified again."),
    }),
    run: async (ctx, a) => ({
      requested: "The cost of verifying the audience's addresses.",
      changed: [],
      result: await auditEstimate(ctx.db, { workspaceId: ctx.workspaceId, ...target(a) }),
    }),
  }),
  defineTool({
    name: "audits_get",
    title: "Read an audit",
    description:
      "One audit: status, progress, counts and shares per status, contacts per reason and country, accounts with a mailable contact, the cost per format, and up to 10 samples with a fix (all: audits_problems).",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({ auditId: ZAuditId }),
    result: ZAuditOut.extend({ samples: z.array(ZSample) }),
    run: async (ctx, a) => {
      const audit = await getAudit(ctx.db, { workspaceId: ctx.workspaceId, auditId: a.auditId });
      await logWork(
        ctx.log,
        `Audit ${audit.auditId}`,
        audit,
        { auditId: audit.auditId },
        `${audit.contacts} contacts: ${audit.mailable} mailable, ${audit.fixable} fixable, ${audit.unmailable} unmailable`,
      );
      return { requested: `Audit ${a.auditId}.`, changed: [], result: audit };
    },
  }),
  defineTool({
    name: "audits_list",
    title: "List audits",
    description:
      "Mailability audits, newest first, a page at a time (of one audience or campaign if given): whether the data improves.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({
      audienceId: ZAudienceId.optional().describe("Only this audience's audits."),
      campaignId: ZCampaignRef.optional().describe("Only the audits run for this campaign."),
      cursor: z.string().max(64).optional().describe("nextCursor of the previous page."),
      take: z.number().int().min(1).max(100).default(25).describe("Page size."),
    }),
    result: z.object({ audits: z.array(ZAuditOut), nextCursor: z.string().nullable() }),
    run: async (ctx, a) => ({
      requested: "The list of audits.",
      changed: [],
      result: await listAudits(ctx.db, { workspaceId: ctx.workspaceId, ...a }),
    }),
  }),
  defineTool({
    name: "audits_problems",
    title: "List an audit's contacts with a reason",
    description:
      "An audit's contacts with a reason (informational ones like po_box too) or not mailable, by reason and status, with address, normalised form and suggested fix.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({
      auditId: ZAuditId,
      reason: ZMailabilityReason.optional().describe("Only contacts with this reason."),
      status: ZMailabilityStatus.optional(),
      cursor: z.string().max(200).optional().describe("nextCursor of the previous page."),
      take: z.number().int().min(1).max(100).default(25).describe("Page size."),
    }),
    result: z.object({
      items: z.array(
        z.object({
          contactId: z.string(),
          status: ZMailabilityStatus,
          reasons: z.array(ZMailabilityReason),
          suggestion: ZAddressFix.nullable(),
          contact: ZAddressFields.extend({
            firstName: z.string(),
            lastName: z.string(),
            email: z.string().nullable(),
            company: z.string().nullable(),
          }),
          normalised: ZAddressFields,
          normalisationNotes: z
            .array(z.string())
            .describe(
              "What the normalised form guessed, in words: a leading zero a spreadsheet dropped put back (where the region confirms it), or left out (where it does not).",
            ),
        }),
      ),
      nextCursor: z.string().nullable(),
    }),
    run: async (ctx, a) => ({
      requested: `Contacts of audit ${a.auditId} with a reason.`,
      changed: [],
      result: await auditProblems(ctx.db, { workspaceId: ctx.workspaceId, ...a }),
    }),
  }),
  defineTool({
    name: "contacts_apply_fix",
    title: "Accept a suggested address fix",
    description:
      "Accepts the suggested correction of a fixable contact's address, judged now; refused without one (contacts_get). Returns what changed and the mailability now.",
    scope: "contacts:write",
    kind: "write",
    idempotent: true,
    destructive: true,
    input: z.object({
      contactId: ZContactId.describe("A fixable contact (ctc_…): audits_problems { status: 'fixable' } lists them."),
    }),
    result: z.object({
      contactId: z.string(),
      changed: z
        .record(z.string(), z.object({ from: z.string().nullable(), to: z.string() }))
        .describe("Each field changed, from → to."),
      mailability: ZVerdict,
    }),
    run: async (ctx, a) => {
      const fixed = await applyFix(ctx.db, { workspaceId: ctx.workspaceId, contactId: a.contactId, actor: ctx.actor });
      return {
        requested: `Accept the suggested fix of contact ${a.contactId}.`,
        changed: [
          `${a.contactId}: ${describeFix(Object.fromEntries(Object.entries(fixed.changed).map(([f, c]) => [f, c.to])))}.`,
        ],
        result: fixed,
      };
    },
    errorHints: {
      invalid_state:
        "Read the contact with contacts_get: its mailability says what is wrong; a person fixes what has no suggestion.",
    },
  }),
  defineTool({
    name: "contacts_apply_fixes",
    title: "Accept an audit's suggested fixes in bulk",
    description: `Accepts the suggested fixes of an audit's fixable contacts: contactIds (at most ${BULK_FIX_MAX}), those with a reason, or with auditId alone all (${BULK_FIX_MAX} a call; again while remaining > 0). Each is judged again, skipped if its fix no longer holds.`,
    scope: "contacts:write",
    kind: "write",
    idempotent: true,
    destructive: true,
    input: z.object({
      auditId: ZAuditId,
      contactIds: z.array(ZContactId).min(1).max(BULK_FIX_MAX).optional().describe("Only these contacts (ctc_…)."),
      reason: ZMailabilityReason.optional().describe("Only contacts with this reason."),
    }),
    result: z.object({
      fixed: z.number().int(),
      skipped: z.number().int(),
      remaining: z
        .number()
        .int()
        .describe("Fixable contacts of the audit (with that reason) not looked at yet: call again."),
      changes: z
        .array(
          z.object({
            contactId: z.string(),
            changed: z.record(z.string(), z.object({ from: z.string().nullable(), to: z.string() })),
          }),
        )
        .describe("Up to 100 of the changes made."),
    }),
    run: async (ctx, a) => {
      const r = await applyFixes(ctx.db, {
        workspaceId: ctx.workspaceId,
        auditId: a.auditId,
        contactIds: a.contactIds,
        reason: a.reason,
        actor: ctx.actor,
      });
      return {
        requested: `Accept the suggested fixes of audit ${a.auditId}${a.reason ? ` for ${a.reason}` : ""}.`,
        changed: [`${r.fixed} contacts fixed, ${r.skipped} skipped.`],
        result: r,
      };
    },
    errorHints: { invalid_state: "Wait until audits_get says the audit succeeded." },
  }),
];
