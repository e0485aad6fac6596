import type { Db } from "@/server/db";
import type { PriceQuote } from "./adapter";

/** A contract's prices: per destination country (ISO code -> cents), and its highest (unitCostCents). */
export interface TContractPrices {
  unitCostCents: number;
  countryPrices: unknown;
}

/** Country -> price per piece in cents, from a vendor's quote (what a contract keeps). */
export const countryPricesOf = (quote: Pick<PriceQuote, "perCountry">): Record<string, number> => Object.fromEntries(quote.perCountry.map((c) => [c.country, c.unitCostCents]));

const table = (json: unknown): Record<string, number> => (json && typeof json === "object" && !Array.isArray(json) ? (json as Record<string, number>) : {});

/**
 * What one piece to a country costs on a contract: the vendor's price for that country, else (a
 * contract made before prices were kept per country, or a country it has no price for) its
 * highest price, so that a piece never reserves less than it may be charged.
 */
export function pricePerPiece(contract: TContractPrices, country: string | null | undefined): number {
  const price = country ? table(contract.countryPrices)[country.toUpperCase()] : undefined;
  return Number.isInteger(price) && price! >= 0 ? price! : contract.unitCostCents;
}

/** The lowest and highest price per piece among the contract's countries. */
export function priceRange(contract: TContractPrices): { lowCents: number; highCents: number } {
  const prices = Object.values(table(contract.countryPrices)).filter((p) => Number.isInteger(p));
  return prices.length ? { lowCents: Math.min(...prices), highCents: Math.max(...prices) } : { lowCents: contract.unitCostCents, highCents: contract.unitCostCents };
}

/**
 * The cost of mailing an audience on a contract, from its contacts' countries (each at its
 * country's price), for a share of it (1 - the holdout): what the go-live card estimates.
 */
export async function audienceCostEstimate(db: Db, p: { workspaceId: string; audienceId: string; contract: TContractPrices; share: number }) {
  const rows = await db.$queryRaw<{ country: string | null; n: bigint }[]>`
    SELECT c.country, count(*) AS n FROM "AudienceMember" m JOIN "Contact" c ON c.id = m."contactId"
     WHERE m."audienceId" = ${p.audienceId} AND m."workspaceId" = ${p.workspaceId} GROUP BY c.country ORDER BY count(*) DESC, c.country`;
  const byCountry = rows.map((r) => ({ country: r.country, contacts: Number(r.n), unitCostCents: pricePerPiece(p.contract, r.country) }));
  const total = byCountry.reduce((s, r) => s + r.contacts * r.unitCostCents, 0);
  return { byCountry, totalCents: Math.round(total * p.share) };
}
