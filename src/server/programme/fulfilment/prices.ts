import type { Db } from "@/server/ground/db";
import { pricePerPiece, type TContractPrices } from "@/server/records/pieces/contract-price";
import type { PriceQuote } from "./adapter";

/** Country -> price per piece in cents, from a vendor's quote (what a contract keeps). */
export const countryPricesOf = (quote: Pick<PriceQuote, "perCountry">): Record<string, number> =>
  Object.fromEntries(quote.perCountry.map((c) => [c.country, c.unitCostCents]));

/**
 * The cost of mailing an audience on a contract, from its contacts' countries (each at its
 * country's price), for a share of it (1 - the holdout): what the go-live card estimates.
 */
export async function audienceCostEstimate(
  db: Db,
  p: { workspaceId: string; audienceId: string; contract: TContractPrices; share: number },
) {
  const rows = await db.$queryRaw<{ country: string | null; n: bigint }[]>`
    SELECT c.country, count(*) AS n FROM "AudienceMember" m JOIN "Contact" c ON c.id = m."contactId"
     WHERE m."audienceId" = ${p.audienceId} AND m."workspaceId" = ${p.workspaceId} GROUP BY c.country ORDER BY count(*) DESC, c.country`;
  const byCountry = rows.map((r) => ({
    country: r.country,
    contacts: Number(r.n),
    unitCostCents: pricePerPiece(p.contract, r.country),
  }));
  const total = byCountry.reduce((s, r) => s + r.contacts * r.unitCostCents, 0);
  return { byCountry, totalCents: Math.round(total * p.share) };
}
