import { z } from "zod";
import { ZAudienceId } from "@/server/records/contacts/schema";
import { ZJobView } from "@/server/records/jobs/schema";
import { MAILABILITY_REASONS, MAILABILITY_STATUSES, REASON_LABELS, ZMailabilityReason } from "./reasons";
import { VERIFICATION_MODES, VERIFICATION_VERDICTS } from "./verifiers/types";

export const ZAuditId = z
  .string()
  .max(64)
  .regex(/^mla_[0-9a-f]{32}$/, "An audit id looks like mla_ followed by 32 hexadecimal digits.")
  .describe("The audit's id (mla_…); audits_run and audits_list give them.");

export const ZCampaignRef = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\w-]+$/, "Not a campaign id.");

/** What to audit: an audience, or a campaign (its audience, judged for its format and printer). */
export const ZAuditTargetFields = z.object({
  audienceId: ZAudienceId.nullish().describe("The audience to audit (aud_…); audiences_list gives them."),
  campaignId: ZCampaignRef.nullish().describe(
    "A campaign's audience, judged for its format (address block, PO boxes for gifts) and printer's countries.",
  ),
});
export const hasAuditTarget = (t: { audienceId?: string | null; campaignId?: string | null }) =>
  !!t.audienceId || !!t.campaignId;
export const ZAuditTarget = ZAuditTargetFields.refine(hasAuditTarget, { message: "Give audienceId or campaignId." });

export const ZMailabilityStatus = z
  .enum(MAILABILITY_STATUSES)
  .describe("mailable; fixable (a likely correction exists: contacts_apply_fix accepts it); unmailable.");
export const ZAuditStatus = z
  .enum(["queued", "running", "succeeded", "failed", "cancelled"])
  .describe("queued, running, then succeeded, failed or cancelled; the figures are final once succeeded.");

const reasonDocs = MAILABILITY_REASONS.map((r) => `${r}: ${REASON_LABELS[r]}`).join("; ");
export const ZReasonCounts = z
  .partialRecord(ZMailabilityReason, z.number().int())
  .describe(
    `Contacts per reason (a contact counts once per reason it has). Reasons (see /docs/mailability): ${reasonDocs}.`,
  );

export const ZAddressFix = z
  .object({
    addressLine1: z.string().optional(),
    addressLine2: z.string().optional(),
    city: z.string().optional(),
    region: z.string().optional(),
    postalCode: z.string().optional(),
    country: z.string().optional(),
  })
  .describe(
    "The fields the suggested correction changes, with their new values (e.g. { postalCode: '02116' }, { country: 'DE' }, { region: 'SP' }).",
  );

export const ZAddressFields = z.object({
  addressLine1: z.string().nullable(),
  addressLine2: z.string().nullable(),
  city: z.string().nullable(),
  region: z.string().nullable(),
  postalCode: z.string().nullable(),
  country: z.string().nullable(),
});

export const ZVerdict = z.object({
  status: ZMailabilityStatus,
  reasons: z
    .array(ZMailabilityReason)
    .describe("Every reason that applies, informational ones (duplicate_address; po_box outside gifts) included."),
  suggestion: ZAddressFix.optional(),
});

export const ZSample = z.object({
  contactId: z.string(),
  status: ZMailabilityStatus,
  reasons: z.array(ZMailabilityReason),
  suggestion: ZAddressFix.optional(),
});

export const ZAuditOut = z.object({
  auditId: z.string(),
  status: ZAuditStatus,
  error: z.string().nullable().describe("Why it failed, in one sentence; null unless failed."),
  progress: ZJobView.shape.progress
    .nullable()
    .describe("While queued or running: contacts done, total, contacts per second and seconds left."),
  jobId: z.string().nullable().describe("The audit_run job doing the work."),
  audienceId: z.string().nullable(),
  audienceName: z.string(),
  campaignId: z.string().nullable().describe("The campaign it was run for (its format and printer), if any."),
  campaignName: z.string().nullable(),
  format: z
    .string()
    .nullable()
    .describe("The campaign's format judged (a PO box stops gifts only); null for an audience audit."),
  addressBlock: z
    .object({ format: z.string(), size: z.string() })
    .describe("The address block addresses were measured against (address_too_long)."),
  contacts: z.number().int(),
  mailable: z.number().int(),
  fixable: z.number().int(),
  unmailable: z.number().int(),
  mailableShare: z.number().describe("Fraction of the contacts (0 to 1)."),
  fixableShare: z.number().describe("Fraction of the contacts (0 to 1)."),
  unmailableShare: z.number().describe("Fraction of the contacts (0 to 1)."),
  reasons: ZReasonCounts,
  accounts: z.number().int(),
  accountsWithMailableContact: z
    .number()
    .int()
    .describe("Accounts with at least one mailable contact: the holdout is drawn per account."),
  byCountry: z.array(
    z.object({
      country: z.string().nullable().describe("ISO 3166-1 alpha-2, upper case; null when none was given."),
      contacts: z.number().int(),
      mailable: z.number().int(),
    }),
  ),
  coveredCountries: z
    .array(z.string())
    .nullable()
    .describe(
      "Countries the approved printers (a campaign: its contract) mail to when it ran; null when there was none (unsupported_country is then not judged).",
    ),
  costs: z
    .array(
      z.object({
        format: z.string(),
        contacts: z
          .number()
          .int()
          .describe("Mailable contacts in countries an approved contract of this format covers."),
        uncovered: z
          .number()
          .int()
          .describe("Mailable contacts in countries no approved contract of this format covers (not priced)."),
        unitCostCents: z
          .number()
          .int()
          .describe("The lowest price per piece among the format's approved contracts, in cents."),
        totalCents: z
          .number()
          .int()
          .describe("Mailing each covered contact once at the cheapest contract covering its country, in cents."),
      }),
    )
    .describe("What mailing the mailable contacts would cost, per format with an approved printer."),
  verification: z
    .object({
      verifier: z.string().nullable(),
      mode: z
        .enum(VERIFICATION_MODES)
        .nullable()
        .describe(
          "live: the verifier looked the addresses up. test (a vendor's test key) or sandbox: it verified nothing, and its answers are not about the addresses. Null for an audit run before modes were kept.",
        ),
      estimateCents: z.number().int().describe("The estimate shown before the run, in cents."),
      made: z.number().int().describe("Addresses sent to the verifier."),
      cached: z.number().int().describe("Contacts whose address had a cached answer (free)."),
      notVerified: z
        .number()
        .int()
        .describe(
          "Contacts whose address the verifier answered without verifying it (not_verified: test mode, sandbox).",
        ),
      costCents: z.number().int().describe("What the verifications made cost, in cents."),
    })
    .nullable()
    .describe(
      "Null when the audit ran without address verification (missing_unit and undeliverable then come only from cached answers and marks).",
    ),
  requestedBy: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});

/** A contact's mailability now (contacts_get, the contact page). */
export const ZContactMailability = ZVerdict.extend({
  why: z.array(z.string()).describe("Each reason in words, in the reasons' order: why the contact is flagged now."),
  normalised: ZAddressFields.describe(
    "The address as the service normalises it (ISO country, region code, the country's postal code form), shown beside the original.",
  ),
  verification: z
    .object({
      verdict: z
        .enum(VERIFICATION_VERDICTS)
        .describe("not_verified: the verifier looked nothing up (a test key, the sandbox)."),
      vendorVerdict: z.string(),
      verifier: z.string(),
      mode: z
        .enum(VERIFICATION_MODES)
        .describe("live, or test / sandbox: an answer that verified nothing about the address."),
    })
    .nullable()
    .describe("The address verifier's cached answer for this address, when it has one."),
  latestAudit: z
    .object({
      auditId: z.string(),
      auditedAt: z.string(),
      of: z.string().describe("The audience or campaign audited."),
      status: ZMailabilityStatus,
      reasons: z.array(ZMailabilityReason),
      why: z
        .array(z.string())
        .describe(
          'Each of the audit\'s reasons in words ("no postal code", "on the suppression list"): why it flagged the contact.',
        ),
    })
    .nullable()
    .describe(
      "The contact's verdict in the newest finished audit that included it (duplicates within the audience are judged there).",
    ),
}).describe(
  "Whether the contact can be mailed now and why not: the audit's verdict for an audience (every approved printer's countries, the smallest address block), see /docs/mailability.",
);
