import Papa from "papaparse";

/** A row of an outcomes CSV, by its lower-cased header. */
export interface OutcomeCsvRow {
  account?: string;
  kind?: string;
  at?: string;
  amount?: string;
  external_id?: string;
}

/** Rows of a CSV with the columns account, kind, at, amount (dollars, optional), external_id (optional). */
export function toOutcomeRows(rows: OutcomeCsvRow[]) {
  return rows.map((r) => ({
    account: r.account?.trim() ?? "",
    kind: r.kind?.trim() ?? "",
    at: r.at?.trim() ?? "",
    amountCents: r.amount?.trim() ? Math.round(Number(r.amount.replace(/[$,]/g, "")) * 100) : null,
    externalId: r.external_id?.trim() || null,
  }));
}

/** The Results page's reading of an outcomes CSV, for text given on the server (an agent's). */
export function parseOutcomesCsv(csv: string) {
  const parsed = Papa.parse<OutcomeCsvRow>(csv.replace(/^\uFEFF/, ""), {
    header: true,
    skipEmptyLines: true,
    transformHeader: (h) => h.trim().toLowerCase(),
  });
  const missing = ["account", "kind", "at"].filter((c) => !parsed.meta.fields?.includes(c));
  return { rows: toOutcomeRows(parsed.data), missing };
}
