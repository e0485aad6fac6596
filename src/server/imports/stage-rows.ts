import { type CopyTarget, type CopyValue, copyBodyText } from "@/server/platform/copy-in";
import type { Batch } from "./prepare";

/**
 * The staging table's columns (ContactImportStage, see stage.ts) and a batch's rows as its values,
 * without the database: the import's thread uses them too, to hand over a batch's rows already in
 * COPY's text format.
 */
export const STAGE: CopyTarget = {
  table: "ContactImportStage",
  columns: ["importId", "row", "firstName", "lastName", "title", "email", "phone", "addressLine1", "addressLine2", "city", "region", "postalCode", "country", "addressKey", "matchKey", "crmId", "customFields"],
  types: ["text", "int", "text", "text", "text", "text", "text", "text", "text", "text", "text", "text", "text", "text", "text", "text", "jsonb"],
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

/** A batch's rows for the staging table in COPY's text format (one string). */
export const stageText = (importId: string, batch: Pick<Batch, "rows" | "rowNumbers">): string => copyBodyText(stageValues(importId, batch));
