import type { Db } from "@/server/ground/db";
import { pricePerPiece } from "@/server/records/pieces/contract-price";
import { approvedContracts } from "./facts";
import type { TMailabilityReason, TMailabilityStatus } from "./reasons";

// Types, not interfaces: an audit stores them as JSON, and only a type has the index signature Prisma's JSON input asks for.
export type TCountryRow = {
  country: string | null;
  contacts: number;
  mailable: number;
};
export type TFormatCost = {
  format: string;
  /** Mailable contacts in countries an approved contract of this format mails to. */
  contacts: number;
  /** Mailable contacts in countries no approved contract of this format covers (not priced). */
  uncovered: number;
  /** The cheapest piece among the covered contacts, at its country's price (cents); the lowest contract price when none is covered. */
  unitCostCents: number;
  /** Every covered mailable contact once, each at its country's price on the cheapest contract covering it (cents). */
  totalCents: number;
};

/**
 * The report's figures, counted from the audit's result rows (one per contact audited): per
 * status and reason, per country (kept as ISO codes, so "Deutschland", "de" and "DE" are one), accounts with
 * a mailable contact, and what mailing the mailable contacts would cost per format, each country
 * priced at the cheapest approved contract of that format that mails there.
 */
export async function auditFigures(db: Db, p: { workspaceId: string; auditId: string }) {
  const [statuses, reasons, countries, accounts, contracts] = await Promise.all([
    db.$queryRaw<{ status: TMailabilityStatus; n: number }[]>`
      SELECT status::text AS status, count(*)::int AS n FROM "MailabilityResult" WHERE "auditId" = ${p.auditId} AND "workspaceId" = ${p.workspaceId} GROUP BY status`,
    db.$queryRaw<{ reason: TMailabilityReason; n: number }[]>`
      SELECT r AS reason, count(*)::int AS n FROM "MailabilityResult", unnest(reasons) r WHERE "auditId" = ${p.auditId} AND "workspaceId" = ${p.workspaceId} GROUP BY r`,
    db.$queryRaw<{ country: string | null; contacts: number; mailable: number }[]>`
      SELECT NULLIF(upper(btrim(country)), '') AS country, count(*)::int AS contacts, (count(*) FILTER (WHERE status = 'mailable'))::int AS mailable
        FROM "MailabilityResult" WHERE "auditId" = ${p.auditId} AND "workspaceId" = ${p.workspaceId} GROUP BY 1 ORDER BY 2 DESC, 1`,
    db.$queryRaw<{ accounts: number; reachable: number }[]>`
      SELECT count(*)::int AS accounts, (count(*) FILTER (WHERE reachable))::int AS reachable FROM (
        SELECT COALESCE("accountId", "contactId") AS account, bool_or(status = 'mailable') AS reachable
          FROM "MailabilityResult" WHERE "auditId" = ${p.auditId} AND "workspaceId" = ${p.workspaceId} GROUP BY 1) a`,
    approvedContracts(db, p.workspaceId),
  ]);
  const counts: Record<TMailabilityStatus, number> = { mailable: 0, fixable: 0, unmailable: 0 };
  for (const s of statuses) counts[s.status] = s.n;
  const byCountry: TCountryRow[] = countries;
  const costs: TFormatCost[] = [];
  for (const format of [...new Set(contracts.map((c) => c.format))]) {
    const own = contracts.filter((c) => c.format === format);
    let contacts = 0;
    let uncovered = 0;
    let totalCents = 0;
    /** The cheapest piece among the mailable contacts' countries ("from $1.04 a piece"). */
    let lowest = Number.POSITIVE_INFINITY;
    for (const row of byCountry) {
      if (!row.mailable) continue;
      // Each piece at its country's price on the cheapest printer that mails there (what the lifecycle charges).
      const prices = own
        .filter((c) => row.country && c.countries.includes(row.country))
        .map((c) => pricePerPiece(c, row.country));
      if (!prices.length) uncovered += row.mailable;
      else {
        contacts += row.mailable;
        totalCents += Math.min(...prices) * row.mailable;
        lowest = Math.min(lowest, ...prices);
      }
    }
    costs.push({
      format,
      contacts,
      uncovered,
      unitCostCents: Number.isFinite(lowest) ? lowest : Math.min(...own.map((c) => c.unitCostCents)),
      totalCents,
    });
  }
  return {
    contacts: counts.mailable + counts.fixable + counts.unmailable,
    ...counts,
    reasons: Object.fromEntries(reasons.map((r) => [r.reason, r.n])) as Partial<Record<TMailabilityReason, number>>,
    byCountry,
    accounts: accounts[0]?.accounts ?? 0,
    accountsWithMailableContact: accounts[0]?.reachable ?? 0,
    costs,
  };
}
