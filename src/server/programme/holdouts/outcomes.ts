import { z } from "zod";
import type { PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import { CONVERSION_KINDS, MONEY_KINDS } from "@/server/programme/conversions/schema";
import { occurrenceKey } from "@/server/programme/conversions/service";
import { AppError } from "@/server/ground/errors";
import { fingerprint } from "@/server/ground/platform/fingerprint";
import { EARLIEST_TIMESTAMP, isStorableTime, LATEST_TIMESTAMP } from "@/server/ground/http/fields";

/** One outcome row as a CRM export or CSV gives it. */
export const ZOutcomeRow = z.object({
  /** The account's domain (initech.com) or its CRM id. */
  account: z.string().trim().min(1, "account is empty: give the account's domain or CRM id.").max(200),
  kind: z.enum(CONVERSION_KINDS, { error: `kind must be one of ${CONVERSION_KINDS.join(", ")}.` }),
  at: z
    .string()
    .trim()
    .max(40, "at must be a date or date-time, like 2026-10-03 or 2026-10-03T14:00:00Z.")
    .refine(
      (v) => !Number.isNaN(Date.parse(v)),
      "at must be a date or date-time, like 2026-10-03 or 2026-10-03T14:00:00Z.",
    )
    .refine(
      (v) => Number.isNaN(Date.parse(v)) || isStorableTime(Date.parse(v)),
      `at must be between ${EARLIEST_TIMESTAMP.slice(0, 10)} and ${LATEST_TIMESTAMP.slice(0, 10)}.`,
    ),
  amountCents: z
    .number()
    .int("amount must be whole cents.")
    .min(0, "amount must not be negative.")
    .nullable()
    .optional(),
  externalId: z.string().trim().max(200).nullable().optional(),
});
export type TOutcomeRow = z.infer<typeof ZOutcomeRow>;
export const ZImportOutcomesInput = z.object({
  rows: z.array(z.unknown()).min(1, "The file has no rows.").max(5000, "Import at most 5,000 rows at a time."),
  source: z.enum(["csv", "crm"]).default("csv"),
});

export interface ImportReport {
  /** Outcomes written by this import (0 whenever a row has an error: an import is all or nothing). */
  created: number;
  /** Rows identical to an outcome already recorded (or to an earlier row of the file). */
  unchanged: number;
  /** Every bad row, by number (1 is the first data row); when there is any, nothing was written. */
  errors: { row: number; message: string }[];
}

type CheckedRow = { accountId: string; row: TOutcomeRow; at: string; key: string; print: string };

/**
 * Records account outcomes for measurement, for treated and held-out accounts alike. Each row is
 * matched to an account of the workspace by domain or CRM id. All or report: every row is checked
 * first, and if any is bad (unreadable, unknown account, money kind without an amount, or an
 * occurrence (account, kind, externalId or at) already recorded, or repeated in the file, with
 * other values) the report lists each bad row and nothing is written. Otherwise every new outcome
 * is written in one transaction; re-importing the same file changes nothing.
 */
export async function importOutcomes(
  prisma: PrismaClient,
  p: { workspaceId: string; rows: unknown[]; source: "csv" | "crm"; actor: Actor },
): Promise<ImportReport> {
  const errors: ImportReport["errors"] = [];
  const parsed = p.rows.map((row, i) => ({ i: i + 1, result: ZOutcomeRow.safeParse(row) }));
  const names = [...new Set(parsed.flatMap((r) => (r.result.success ? [r.result.data.account.toLowerCase()] : [])))];
  return prisma.$transaction(async (tx) => {
    const accounts = await tx.account.findMany({
      where: { workspaceId: p.workspaceId, OR: [{ domain: { in: names } }, { crmId: { in: names } }] },
      select: { id: true, domain: true, crmId: true },
    });
    const byName = new Map<string, string>();
    for (const a of accounts) {
      if (a.domain) byName.set(a.domain.toLowerCase(), a.id);
      if (a.crmId) byName.set(a.crmId.toLowerCase(), a.id);
    }

    const checked: (CheckedRow & { i: number })[] = [];
    for (const { i, result } of parsed) {
      if (!result.success) {
        errors.push({ row: i, message: result.error.issues.map((e) => e.message).join(" ") });
        continue;
      }
      const row = result.data;
      const accountId = byName.get(row.account.toLowerCase());
      if (!accountId) errors.push({ row: i, message: `No account ${row.account} in this workspace.` });
      else if (MONEY_KINDS.includes(row.kind) && row.amountCents == null)
        errors.push({ row: i, message: `${row.kind} needs an amount.` });
      else {
        const at = new Date(row.at).toISOString();
        const key = occurrenceKey({ externalId: row.externalId ?? undefined, at });
        const print = fingerprint({
          kind: row.kind,
          amountCents: row.amountCents ?? null,
          at,
          externalId: row.externalId ?? null,
        });
        checked.push({ i, accountId, row, at, key, print });
      }
    }

    // Occurrences already recorded, and repeats within the file, must carry the same values.
    const identity = (c: { accountId: string; kind: string; key: string }) => `${c.accountId}\n${c.kind}\n${c.key}`;
    const existing = new Map<string, string>();
    const keys = [...new Set(checked.map((c) => c.key))];
    for (let start = 0; start < keys.length; start += 1000) {
      const found = await tx.accountOutcome.findMany({
        where: {
          workspaceId: p.workspaceId,
          accountId: { in: [...new Set(checked.map((c) => c.accountId))] },
          occurrenceKey: { in: keys.slice(start, start + 1000) },
        },
        select: { accountId: true, kind: true, occurrenceKey: true, fingerprint: true },
      });
      for (const f of found)
        existing.set(identity({ accountId: f.accountId, kind: f.kind, key: f.occurrenceKey }), f.fingerprint);
    }
    const fresh = new Map<string, CheckedRow>();
    let unchanged = 0;
    for (const c of checked) {
      const id = identity({ accountId: c.accountId, kind: c.row.kind, key: c.key });
      const before = existing.get(id) ?? fresh.get(id)?.print;
      if (before === undefined) fresh.set(id, c);
      else if (before === c.print) unchanged++;
      else
        errors.push({
          row: c.i,
          message: `This ${c.row.kind} of ${c.row.account} was ${existing.has(id) ? "imported before" : "given earlier in this file"} with other values; give it its own external id.`,
        });
    }
    if (errors.length) return { created: 0, unchanged, errors: errors.sort((a, b) => a.row - b.row) };

    const data = [...fresh.values()].map((c) => ({
      workspaceId: p.workspaceId,
      accountId: c.accountId,
      kind: c.row.kind,
      amountCents: c.row.amountCents == null ? null : BigInt(c.row.amountCents),
      at: c.at,
      externalId: c.row.externalId ?? null,
      occurrenceKey: c.key,
      fingerprint: c.print,
      source: p.source,
    }));
    // A concurrent import of the same occurrences: what it wrote first is kept, and this one stops.
    const { count } = await tx.accountOutcome.createMany({ data, skipDuplicates: true });
    if (count !== data.length)
      throw new AppError(
        "conflict",
        "Another import recorded some of these outcomes at the same moment; nothing was written. Import the file again.",
      );
    const report = { created: count, unchanged, errors: [] };
    await recordAudit(tx, p.workspaceId, p.actor, "outcomes.imported", undefined, { created: count, unchanged });
    return report;
  });
}
