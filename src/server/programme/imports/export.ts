import type { Db } from "@/server/ground/db";
import { csvLine } from "@/server/ground/platform/csv-line";

/** The refused rows (or warnings) of an import as CSV: the file's own columns, then the row number, the column and the reason. */
export async function* importIssuesCsv(
  db: Db,
  p: { workspaceId: string; importId: string; kind: "refused" | "warning" },
): AsyncGenerator<string> {
  const record = await db.contactImport.findFirst({
    where: { id: p.importId, workspaceId: p.workspaceId },
    select: { columns: true },
  });
  if (!record) return;
  yield `\uFEFF${csvLine([...record.columns, "Row", "Problem column", "Reason"])}`;
  let afterRow = 0;
  for (;;) {
    const rows = await db.contactImportIssue.findMany({
      where: { importId: p.importId, kind: p.kind, row: { gt: afterRow }, import: { workspaceId: p.workspaceId } },
      orderBy: { row: "asc" },
      take: 1000,
    });
    if (!rows.length) return;
    let out = "";
    for (const r of rows) {
      const values = record.columns.map((_, i) => r.values[i] ?? "");
      out += csvLine([...values, r.row, r.column ?? "", r.reason]);
    }
    yield out;
    afterRow = rows[rows.length - 1].row;
  }
}
