import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { csvLine } from "@/server/ground/platform/csv-line";
import { EXPORT_HEADER as HEADER } from "@/server/records/contacts/csv-headers";
import { contactFilterSql, type TContactFilter } from "./filter";

interface ExportRow {
  id: string;
  createdAt: Date;
  firstName: string;
  lastName: string;
  email: string | null;
  title: string | null;
  phone: string | null;
  company: string | null;
  domain: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
  crmId: string | null;
  customFields: Record<string, string> | null;
}

/**
 * The contacts a filter selects as CSV, newest first, 1,000 at a time (so an export of any size
 * holds one page in memory). Headers are ones an import maps back by themselves; custom fields
 * get a column each. Formula-like values are escaped (csvLine); an import removes the escape again
 * (imports/rows.ts), so the export re-imports to the same values.
 */
export async function* contactsCsv(db: Db, p: { workspaceId: string; filter: TContactFilter }): AsyncGenerator<string> {
  const where = contactFilterSql(p.workspaceId, p.filter);
  const keys = (
    await db.$queryRaw<
      { key: string }[]
    >`SELECT DISTINCT jsonb_object_keys(c."customFields") AS key FROM "Contact" c WHERE ${where} ORDER BY 1 LIMIT 200`
  ).map((k) => k.key);
  yield `\uFEFF${csvLine([...HEADER, ...keys])}`;
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const rows: ExportRow[] = await db.$queryRaw<ExportRow[]>`
      SELECT c.id, c."createdAt", c."firstName", c."lastName", c.email, c.title, c.phone, a.name AS company, a.domain,
             c."addressLine1", c."addressLine2", c.city, c.region, c."postalCode", c.country, c."crmId", c."customFields"
        FROM "Contact" c LEFT JOIN "Account" a ON a.id = c."accountId"
       WHERE ${where} ${after ? Prisma.sql`AND (c."createdAt", c.id) < (${after.createdAt}, ${after.id})` : Prisma.empty}
       ORDER BY c."createdAt" DESC, c.id DESC LIMIT 1000`;
    if (!rows.length) return;
    let out = "";
    for (const r of rows) {
      out += csvLine([
        r.id,
        r.firstName,
        r.lastName,
        r.email,
        r.title,
        r.phone,
        r.company,
        r.domain,
        r.addressLine1,
        r.addressLine2,
        r.city,
        r.region,
        r.postalCode,
        r.country,
        r.crmId,
        ...keys.map((k) => r.customFields?.[k] ?? ""),
      ]);
    }
    yield out;
    const last = rows[rows.length - 1];
    after = { createdAt: last.createdAt, id: last.id };
  }
}
