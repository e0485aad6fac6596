import { type CopyTarget, type CopyValue, copyBodyText, copyText as cell } from "@/server/ground/platform/copy-in";
import type { Batch } from "./prepare";

/**
 * The staging table's columns (ContactImportStage, see stage.ts) and a batch's rows as its values,
 * without the database: the import's thread uses them too, to hand over a batch's rows already in
 * COPY's text format.
 */
export const STAGE: CopyTarget = {
  table: "ContactImportStage",
  columns: [
    "importId",
    "row",
    "firstName",
    "lastName",
    "title",
    "email",
    "phone",
    "addressLine1",
    "addressLine2",
    "city",
    "region",
    "postalCode",
    "country",
    "addressKey",
    "matchKey",
    "crmId",
    "customFields",
  ],
  types: [
    "text",
    "int",
    "text",
    "text",
    "text",
    "text",
    "text",
    "text",
    "text",
    "text",
    "text",
    "text",
    "text",
    "text",
    "text",
    "text",
    "jsonb",
  ],
};

/** A batch's rows as the staging table's values, in STAGE's column order. */
export function stageValues(importId: string, batch: Pick<Batch, "rows" | "rowNumbers">): CopyValue[][] {
  return batch.rows.map((c, i) => [
    importId,
    batch.rowNumbers[i],
    c.firstName,
    c.lastName,
    c.title,
    c.email,
    c.phone,
    c.addressLine1,
    c.addressLine2,
    c.city,
    c.region,
    c.postalCode,
    c.country,
    c.keys?.addressKey ?? null,
    c.keys?.matchKey ?? null,
    c.crmId,
    JSON.stringify(c.customFields ?? {}),
  ]);
}

/**
 * A batch's rows for the staging table in COPY's text format (one string), the same text as
 * copyBodyText(stageValues(...)) made straight from the rows, each value escaped by copyText,
 * without an array of values per row (an import stages every row of its file: 100,000 arrays of
 * 17 values and their garbage).
 */
export function stageText(importId: string, batch: Pick<Batch, "rows" | "rowNumbers">): string {
  const head = `${cell(importId)}\t`;
  let out = "";
  const { rows, rowNumbers } = batch;
  for (let i = 0; i < rows.length; i++) {
    const c = rows[i];
    out +=
      head +
      rowNumbers[i] +
      "\t" +
      cell(c.firstName) +
      "\t" +
      cell(c.lastName) +
      "\t" +
      cell(c.title) +
      "\t" +
      cell(c.email) +
      "\t" +
      cell(c.phone) +
      "\t" +
      cell(c.addressLine1) +
      "\t" +
      cell(c.addressLine2) +
      "\t" +
      cell(c.city) +
      "\t" +
      cell(c.region) +
      "\t" +
      cell(c.postalCode) +
      "\t" +
      cell(c.country) +
      "\t" +
      cell(c.keys?.addressKey ?? null) +
      "\t" +
      cell(c.keys?.matchKey ?? null) +
      "\t" +
      cell(c.crmId) +
      "\t" +
      cell(JSON.stringify(c.customFields ?? {})) +
      "\n";
  }
  return out;
}

/** The same text by the general path (tests compare the two). */
export const stageTextByValues = (importId: string, batch: Pick<Batch, "rows" | "rowNumbers">): string =>
  copyBodyText(stageValues(importId, batch));
