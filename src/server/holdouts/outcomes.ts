import { z } from "zod";
import type { PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/audit/service";
import { CONVERSION_KINDS, MONEY_KINDS } from "@/server/conversions/schema";
import { occurrenceKey } from "@/server/conversions/service";
import { fingerprint } from "@/server/platform/fingerprint";

/** One outcome row as a CRM export or CSV gives it. */
export const ZOutcomeRow = z.object({
  /** The account's domain (initech.com) or its CRM id. */
  account: z.string().trim().min(1, "account is empty: give the account's domain or CRM id.").max(200),
  kind: z.enum(CONVERSION_KINDS, { error: `kind must be one of ${CONVERSION_KINDS.join(", ")}.` }),
  at: z.string().trim().refine((v) => !Number.isNaN(Date.parse(v)), "at must be a date or date-time, like 2026-10-03 or 2026-10-03T14:00:00Z."),
  amountCents: z.number().int("amount must be whole cents.").min(0, "amount must not be negative.").nullable().optional(),
  externalId: z.string().trim().max(200).nullable().optional(),
});
export type TOutcomeRow = z.infer<typeof ZOutcomeRow>;
export const ZImportOutcomesInput = z.object({ rows: z.array(z.unknown()).min(1, "The file has no rows.").max(5000, "Import at most 5,000 rows at a time."), source: z.enum(["csv", "crm"]).default("csv") });

export interface ImportReport {
  created: number;
  unchanged: number;
  errors: { row: number; message: string }[];
}

/**
 * Records account outcomes for measurement, for treated and held-out accounts alike. Each row is
 * matched to an account of the workspace by domain or CRM id. Re-importing the same file changes
 * nothing; an occurrence (account, kind, externalId or at) imported with other values is an error
 * for that row. Rows with errors are reported and skipped; the others are recorded.
 */
export async function importOutcomes(prisma: PrismaClient, p: { workspaceId: string; rows: unknown[]; source: "csv" | "crm"; actor: Actor }): Promise<ImportReport> {
  const report: ImportReport = { created: 0, unchanged: 0, errors: [] };
  const parsed = p.rows.map((row, i) => ({ i: i + 1, result: ZOutcomeRow.safeParse(row) }));
  const keys = [...new Set(parsed.flatMap((r) => (r.result.success ? [r.result.data.account.toLowerCase()] : [])))];
  const accounts = await prisma.account.findMany({
    where: { workspaceId: p.workspaceId, OR: [{ domain: { in: keys } }, { crmExternalId: { in: keys } }] },
    select: { id: true, domain: true, crmExternalId: true },
  });
  const byKey = new Map<string, string>();
  for (const a of accounts) {
    byKey.set(a.domain.toLowerCase(), a.id);
    if (a.crmExternalId) byKey.set(a.crmExternalId.toLowerCase(), a.id);
  }
  for (const { i, result } of parsed) {
    if (!result.success) {
      report.errors.push({ row: i, message: result.error.issues.map((e) => e.message).join(" ") });
      continue;
    }
    const row = result.data;
    const accountId = byKey.get(row.account.toLowerCase());
    if (!accountId) {
      report.errors.push({ row: i, message: `No account ${row.account} in this workspace.` });
      continue;
    }
    if (MONEY_KINDS.includes(row.kind) && (row.amountCents === null || row.amountCents === undefined)) {
      report.errors.push({ row: i, message: `${row.kind} needs an amount.` });
      continue;
    }
    const at = new Date(row.at).toISOString();
    const key = occurrenceKey({ externalId: row.externalId ?? undefined, at });
    const print = fingerprint({ kind: row.kind, amountCents: row.amountCents ?? null, at, externalId: row.externalId ?? null });
    const [created] = await prisma.accountOutcome.createManyAndReturn({
      data: [{ workspaceId: p.workspaceId, accountId, kind: row.kind, amountCents: row.amountCents == null ? null : BigInt(row.amountCents), at, externalId: row.externalId ?? null, occurrenceKey: key, fingerprint: print, source: p.source }],
      skipDuplicates: true,
      select: { id: true },
    });
    if (created) report.created++;
    else {
      const existing = await prisma.accountOutcome.findUniqueOrThrow({ where: { accountId_kind_occurrenceKey: { accountId, kind: row.kind, occurrenceKey: key } } });
      if (existing.fingerprint === print) report.unchanged++;
      else report.errors.push({ row: i, message: `This ${row.kind} of ${row.account} was imported before with other values; give it its own external id.` });
    }
  }
  await recordAudit(prisma, p.workspaceId, p.actor, "outcomes.imported", undefined, { ...report, errors: report.errors.length });
  return report;
}
