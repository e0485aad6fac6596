import { z } from "zod";
import { ZAudienceId, ZContactId } from "@/server/contacts/schema";
import { ZMailabilityReason } from "@/server/mailability/reasons";
import { ZAuditId, ZAuditOut, ZMailabilityStatus, ZVerdict } from "@/server/mailability/schema";
import { applyFix, auditProblems, getAudit, listAudits, runAudit } from "@/server/mailability/service";
import { defineTool } from "../tool";

const ZSample = z.object({ contactId: z.string(), status: ZMailabilityStatus, reasons: z.array(ZMailabilityReason), suggestion: z.object({ postalCode: z.string() }).optional() });

/** The mailability audit: which contacts can really be mailed, why not, and how to fix them. */
export const auditTools = [
  defineTool({
    name: "audits_run",
    title: "Audit an audience's mailability",
    description:
      "Runs the mailability audit over an audience: each contact is mailable, fixable or unmailable with every reason that applies (the same checks the lifecycle makes before printing, plus duplicates within the audience and the suppression list). Returns { auditId, status } at once with the counts; read the whole report with audits_get. Works on both plans. Kept in the audit history; changes no contact.",
    scope: "contacts:write",
    kind: "write",
    idempotent: false,
    input: z.object({ audienceId: ZAudienceId.describe("The audience to audit (aud_…); audiences_list gives them.") }),
    result: z.object({ auditId: z.string(), status: z.literal("succeeded"), contacts: z.number().int(), mailable: z.number().int(), fixable: z.number().int(), unmailable: z.number().int() }),
    run: async (ctx, a) => {
      const audit = await runAudit(ctx.db, { workspaceId: ctx.workspaceId, audienceId: a.audienceId, actor: ctx.actor });
      return {
        requested: `Audit the mailability of audience ${a.audienceId}.`,
        changed: [`Audit ${audit.id} recorded: ${audit.mailable} mailable, ${audit.fixable} fixable, ${audit.unmailable} unmailable of ${audit.contacts} contacts.`],
        result: { auditId: audit.id, status: "succeeded" as const, contacts: audit.contacts, mailable: audit.mailable, fixable: audit.fixable, unmailable: audit.unmailable },
      };
    },
  }),
  defineTool({
    name: "audits_get",
    title: "Read an audit",
    description:
      "One mailability audit: contacts, mailable / fixable / unmailable counts and shares, contacts per reason, per country, accounts and accountsWithMailableContact (the holdout is drawn per account), what mailing the mailable contacts costs per format, and up to 10 samples of contacts with problems (with a suggested correction when fixable). Page through every problem with audits_problems.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({ auditId: ZAuditId }),
    result: ZAuditOut.extend({ samples: z.array(ZSample) }),
    run: async (ctx, a) => ({ requested: `Audit ${a.auditId}.`, changed: [], result: await getAudit(ctx.db, { workspaceId: ctx.workspaceId, auditId: a.auditId }) }),
  }),
  defineTool({
    name: "audits_list",
    title: "List audits",
    description: "The workspace's mailability audits, newest first (of one audience when audienceId is given): the history that shows whether the data improves.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({ audienceId: ZAudienceId.optional().describe("Only this audience's audits.") }),
    result: z.object({ audits: z.array(ZAuditOut) }),
    run: async (ctx, a) => ({ requested: "The list of audits.", changed: [], result: { audits: await listAudits(ctx.db, { workspaceId: ctx.workspaceId, audienceId: a.audienceId }) } }),
  }),
  defineTool({
    name: "audits_problems",
    title: "List an audit's problem contacts",
    description: "The contacts of an audit with a reason, filterable by reason and status, with their address as audited and the suggested correction. Pass nextCursor back as cursor for the next page.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({
      auditId: ZAuditId,
      reason: ZMailabilityReason.optional(),
      status: ZMailabilityStatus.optional(),
      cursor: z.string().max(200).optional().describe("nextCursor of the previous page."),
      take: z.number().int().min(1).max(100).default(25),
    }),
    result: z.object({
      items: z.array(
        ZSample.omit({ suggestion: true }).extend({
          suggestion: z.object({ postalCode: z.string() }).nullable(),
          contact: z.object({ firstName: z.string(), lastName: z.string(), email: z.string().nullable(), company: z.string().nullable(), addressLine1: z.string().nullable(), addressLine2: z.string().nullable(), city: z.string().nullable(), region: z.string().nullable(), postalCode: z.string().nullable(), country: z.string().nullable() }),
        }),
      ),
      nextCursor: z.string().nullable(),
    }),
    run: async (ctx, a) => ({ requested: `Problem contacts of audit ${a.auditId}.`, changed: [], result: await auditProblems(ctx.db, { workspaceId: ctx.workspaceId, ...a }) }),
  }),
  defineTool({
    name: "contacts_apply_fix",
    title: "Accept a suggested address fix",
    description:
      "Accepts the suggested correction of a fixable contact's address (its postal code, e.g. a ZIP code a spreadsheet cut to four digits), as this agent's edit in the audit log. Refused when the contact has no suggestion (contacts_get shows its mailability). Returns what changed and its mailability now.",
    scope: "contacts:write",
    kind: "write",
    idempotent: true,
    input: z.object({ contactId: ZContactId.describe("A fixable contact (ctc_…): audits_problems { status: 'fixable' } lists them.") }),
    result: z.object({ contactId: z.string(), changed: z.object({ postalCode: z.object({ from: z.string().nullable(), to: z.string() }) }), mailability: ZVerdict }),
    run: async (ctx, a) => {
      const fixed = await applyFix(ctx.db, { workspaceId: ctx.workspaceId, contactId: a.contactId, actor: ctx.actor });
      return { requested: `Accept the suggested fix of contact ${a.contactId}.`, changed: [`Postal code of ${a.contactId}: ${fixed.changed.postalCode.from ?? "empty"} → ${fixed.changed.postalCode.to}.`], result: fixed };
    },
    errorHints: { invalid_state: "Read the contact with contacts_get: its mailability says what is wrong; a person fixes what has no suggestion." },
  }),
];
