import { z } from "zod";
import { ZAudienceSummary } from "@/server/records/audiences/schema";
import { ZSuppressionReason } from "@/server/records/contacts/suppressions";
import { IMPORT_STATUSES, ZColumnOutcome, ZMergedRow } from "@/server/programme/imports/schema";
import { ZJobView } from "@/server/records/jobs/schema";

/** Output schemas of the contact, account, audience, suppression and import tools: every field typed. */

export const ZRecordSource = z
  .enum(["import", "crm", "agent", "owner"])
  .describe("Where it came from: a CSV import, a CRM, an agent or the owner.");
export const ZAddressStatus = z.enum(["unverified", "deliverable", "undeliverable"]);
const ZConversionKind = z.enum([
  "reply",
  "meeting_booked",
  "opportunity_created",
  "signup",
  "trial_started",
  "purchase",
  "pipeline_dollars",
  "closed_won",
]);

export const ZContactRowOut = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  title: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  city: z.string().nullable(),
  region: z.string().nullable(),
  country: z.string().nullable().describe("ISO 3166-1 alpha-2."),
  addressStatus: ZAddressStatus,
  crmId: z.string().nullable(),
  source: ZRecordSource,
  createdAt: z.string(),
  account: z.object({ id: z.string(), name: z.string(), domain: z.string().nullable() }).nullable(),
  suppressed: z
    .boolean()
    .describe(
      "A suppression (the contact, its email or domain, its account or its address) stops it from being mailed.",
    ),
});

export const ZContactOut = z.object({
  id: z.string(),
  accountId: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  title: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  addressLine1: z.string().nullable(),
  addressLine2: z.string().nullable(),
  city: z.string().nullable(),
  region: z.string().nullable(),
  postalCode: z.string().nullable(),
  country: z.string().nullable().describe("ISO 3166-1 alpha-2."),
  addressStatus: ZAddressStatus,
  undeliverableReason: z.string().nullable(),
  crmId: z.string().nullable(),
  customFields: z
    .record(z.string(), z.string())
    .describe("The team's own fields; each is a merge field {{name}} in copy."),
  source: ZRecordSource,
  sourceImportId: z.string().nullable().describe("The import (imp_…) that created the contact, when source is import."),
  sourceDetail: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  account: z
    .object({ id: z.string(), name: z.string(), domain: z.string().nullable(), crmId: z.string().nullable() })
    .nullable(),
  audiences: z.array(z.object({ id: z.string(), name: z.string() })),
  pieces: z.array(
    z.object({
      id: z.string(),
      status: z.enum(["pending_review", "approved", "rendered", "printed", "mailed", "cancelled", "failed"]),
      costCents: z.number().int(),
      createdAt: z.string(),
      mailedAt: z.string().nullable(),
      campaign: z.object({
        id: z.string(),
        name: z.string(),
        format: z.enum(["postcard", "letter", "handwritten", "gift"]),
      }),
      conversions: z.array(
        z.object({ id: z.string(), kind: ZConversionKind, at: z.string(), amountCents: z.number().int().nullable() }),
      ),
    }),
  ),
  accountOutcomes: z.array(
    z.object({
      id: z.string(),
      kind: ZConversionKind,
      at: z.string(),
      amountCents: z.number().int().nullable(),
      source: z.enum(["crm", "csv"]),
    }),
  ),
  suppressions: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(["contact", "email", "address", "account", "domain"]),
      label: z.string(),
      reason: ZSuppressionReason,
      createdAt: z.string(),
    }),
  ),
});

export const ZAccountRowOut = z.object({
  id: z.string(),
  name: z.string(),
  domain: z.string().nullable(),
  crmId: z.string().nullable(),
  source: ZRecordSource,
  contacts: z.number().int(),
  createdAt: z.string(),
});

export const ZAccountOut = z.object({
  id: z.string(),
  name: z.string(),
  domain: z.string().nullable(),
  crmId: z.string().nullable(),
  source: ZRecordSource,
  sourceDetail: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  contacts: z.number().int(),
  audiences: z.array(z.object({ id: z.string(), name: z.string(), contacts: z.number().int() })),
  campaigns: z.array(
    z.object({ id: z.string(), name: z.string(), arm: z.enum(["treatment", "holdout"]), assignedAt: z.string() }),
  ),
  outcomes: z.array(
    z.object({
      id: z.string(),
      kind: ZConversionKind,
      at: z.string(),
      amountCents: z.number().int().nullable(),
      source: z.enum(["crm", "csv"]),
      externalId: z.string().nullable(),
    }),
  ),
});

export const ZAudienceOut = ZAudienceSummary.extend({
  byCountry: z.array(z.object({ country: z.string().nullable(), contacts: z.number().int() })),
  campaigns: z.array(
    z.object({ id: z.string(), name: z.string(), status: z.enum(["draft", "live", "paused", "ended"]) }),
  ),
});

export const ZSuppressionOut = z.object({
  id: z.string(),
  kind: z.enum(["contact", "email", "address", "account", "domain"]),
  value: z.string().nullable().describe("The email, domain or id suppressed; null for an address (see label)."),
  label: z.string(),
  reason: ZSuppressionReason,
  source: ZRecordSource,
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});

const ZRowIssue = z.object({
  row: z.number().int().describe("Row number in the file; the header row is row 1."),
  column: z.string().nullable(),
  reason: z.string(),
});

/** What contacts_import and imports_get answer: the report so far, and the job's progress. */
export const ZImportReport = z.object({
  importId: z.string(),
  status: z.enum(IMPORT_STATUSES),
  rows: z.number().int().describe("Data rows in the file."),
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z
    .number()
    .int()
    .describe(
      "Rows not written: the contact was already there (onExisting skip, or nothing new) or the row repeats an earlier one.",
    ),
  duplicates: z.number().int().describe("Of the skipped rows, repeats of an earlier row of the file."),
  duplicateRows: z
    .array(ZMergedRow)
    .describe(
      "Rows merged as duplicates (repeats of an earlier row, or the same contact as another row), with the contact each joined: 100 at a time, in row order. The first 10,000 of an import are listed; duplicates counts all.",
    ),
  nextDuplicatesAfterRow: z
    .number()
    .int()
    .nullable()
    .describe(
      "More merged rows follow: pass it to imports_get as duplicatesAfterRow for the next 100; null when none are left.",
    ),
  columns: z
    .array(ZColumnOutcome)
    .describe(
      'Every column of the file and what it became: a field, "custom:<name>" (kept on each contact as that custom field) or "ignore" (chosen in the mapping: not kept).',
    ),
  refused: z
    .array(ZRowIssue)
    .describe("Rows of which nothing was written, with the reason: 100 at a time, in row order."),
  refusedCount: z.number().int(),
  nextRefusedAfterRow: z
    .number()
    .int()
    .nullable()
    .describe(
      "More refused rows follow: pass it to imports_get as refusedAfterRow for the next 100; null when none are left.",
    ),
  warnings: z.array(ZRowIssue).describe("Rows written without one value (the first 100), e.g. an unknown country."),
  warningCount: z.number().int(),
  keptFields: z
    .number()
    .int()
    .describe(
      "Fields the file would have changed but that were kept: a person, an agent or an accepted fix changed them after the file's value last came in, and the file's value has not changed since.",
    ),
  audienceId: z.string().nullable().describe("The audience the import's contacts are in."),
  progress: ZJobView.shape.progress.nullable(),
  error: z.string().nullable(),
});
