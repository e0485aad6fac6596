import { z } from "zod";
import { ZJobView } from "@/server/records/jobs/schema";
import { CONTACT_FIELDS, isColumnTarget } from "@/server/records/contacts/csv-headers";
import { MAX_IMPORT_COLUMNS } from "./limits";

export const ZImportId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\w-]+$/, "Not an import id.");

export const ZColumnTarget = z
  .string()
  .max(80)
  .refine(
    isColumnTarget,
    `A column maps to one of ${CONTACT_FIELDS.join(", ")}, to "custom:<name>" (a custom field) or to "ignore".`,
  );

export const ZOnExisting = z
  .enum(["update", "skip"])
  .describe(
    "update: a row of a contact already here updates it (an empty cell changes nothing; a field a person or fix changed since stays unless the file's value changed: keptFields); skip: left as it is.",
  );

export const ZImportStartInput = z.object({
  importId: ZImportId,
  /** One target per column of the file, in order. */
  mapping: z.array(ZColumnTarget).max(MAX_IMPORT_COLUMNS),
  onExisting: ZOnExisting.default("update"),
  audienceId: z.string().min(1).max(64).optional(),
  audienceName: z.string().trim().min(1).max(120).optional(),
});
export type TImportStartInput = z.infer<typeof ZImportStartInput>;

export const IMPORT_STATUSES = ["awaiting_mapping", "queued", "running", "succeeded", "failed", "cancelled"] as const;
export const ZImportStatus = z
  .enum(IMPORT_STATUSES)
  .describe("awaiting_mapping (uploaded, not started), queued, running, then succeeded, failed or cancelled.");

/** What one column of the file became: a field, a custom field or nothing. */
export const ZColumnOutcome = z.object({
  column: z.string(),
  became: z.string().describe('A field, "custom:<name>" or "ignore".'),
});
export type TColumnOutcome = z.infer<typeof ZColumnOutcome>;

/** A row merged as a duplicate and the contact it joined (null: no longer found). */
export const ZMergedRow = z.object({ row: z.number().int(), contactId: z.string().nullable() });

/** An import as people and agents see it: the file, the mapping, the counts and the job's progress. */
export const ZImportView = z.object({
  importId: z.string(),
  fileName: z.string(),
  status: ZImportStatus,
  encoding: z.string(),
  delimiter: z.string(),
  columns: z.array(z.string()),
  /** Each column with what it became, once the import has started (null before). */
  columnMapping: z.array(ZColumnOutcome).nullable(),
  onExisting: ZOnExisting.nullable(),
  audienceId: z.string().nullable(),
  audienceName: z.string().nullable(),
  rows: z.number().int().describe("Data rows in the file (the header row not counted)."),
  rowsDone: z.number().int().describe("Rows read so far."),
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z
    .number()
    .int()
    .describe(
      "Rows not written: a contact already there (onExisting skip, or nothing new) or a repeat of an earlier row of the file.",
    ),
  duplicates: z.number().int().describe("Of the skipped rows, repeats of an earlier row of the same file."),
  refusedCount: z.number().int(),
  warningCount: z.number().int(),
  keptFields: z
    .number()
    .int()
    .describe(
      "Fields kept because a person, an agent or an accepted fix had changed them since the file's value last came in (and the file's value had not changed).",
    ),
  requestedBy: z.string(),
  createdAt: z.string().describe("When the file was uploaded."),
  startedAt: z
    .string()
    .nullable()
    .describe("When the import was started with its mapping; null for an upload never imported."),
  finishedAt: z.string().nullable(),
  job: ZJobView.nullable(),
});
export type TImportView = z.infer<typeof ZImportView>;
