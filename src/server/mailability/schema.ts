import { z } from "zod";
import { MAILABILITY_REASONS, MAILABILITY_STATUSES, REASON_LABELS, ZMailabilityReason } from "./reasons";

export const ZAuditId = z
  .string()
  .max(64)
  .regex(/^mla_[0-9a-f]{32}$/, "An audit id looks like mla_ followed by 32 hexadecimal digits.")
  .describe("The audit's id (mla_…); audits_run and audits_list give them.");

export const ZMailabilityStatus = z.enum(MAILABILITY_STATUSES).describe("mailable; fixable (a likely correction exists: contacts_apply_fix accepts it); unmailable.");

const reasonDocs = MAILABILITY_REASONS.map((r) => `${r}: ${REASON_LABELS[r]}`).join("; ");
export const ZReasonCounts = z.partialRecord(ZMailabilityReason, z.number().int()).describe(`Contacts per reason. Reasons: ${reasonDocs}.`);

export const ZVerdict = z.object({
  status: ZMailabilityStatus,
  reasons: z.array(ZMailabilityReason),
  suggestion: z.object({ postalCode: z.string() }).optional().describe("The correction that makes the contact mailable."),
});

export const ZAuditOut = z.object({
  auditId: z.string(),
  status: z.literal("succeeded").describe("An audit runs to the end within the call."),
  audienceId: z.string().nullable(),
  audienceName: z.string(),
  contacts: z.number().int(),
  mailable: z.number().int(),
  fixable: z.number().int(),
  unmailable: z.number().int(),
  mailableShare: z.number().describe("Fraction of the contacts (0 to 1)."),
  unmailableShare: z.number().describe("Fraction of the contacts (0 to 1)."),
  reasons: ZReasonCounts,
  accounts: z.number().int(),
  accountsWithMailableContact: z.number().int().describe("Accounts with at least one mailable contact: the holdout is drawn per account."),
  byCountry: z.array(z.object({ country: z.string().nullable(), contacts: z.number().int(), mailable: z.number().int() })),
  coveredCountries: z.array(z.string()).nullable().describe("Countries the approved printers mail to when it ran; null when there was no approved printer (unsupported_country is then not judged)."),
  costs: z.array(z.object({ format: z.string(), unitCostCents: z.number().int(), totalCents: z.number().int() })).describe("Mailing every mailable contact once, per format with an approved printer, in cents."),
  requestedBy: z.string(),
  createdAt: z.string(),
});
