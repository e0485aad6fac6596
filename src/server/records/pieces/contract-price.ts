/**
 * What a piece costs on a printer contract: the contract keeps its vendor's price per destination
 * country and its highest price. Pure, and below every domain that prices a piece (the lifecycle,
 * the go-live card, the mailability audit's estimate, the owner's pages).
 */

/** A contract's prices: per destination country (ISO code -> cents), and its highest (unitCostCents). */
export interface TContractPrices {
  unitCostCents: number;
  countryPrices: unknown;
}

const table = (json: unknown): Record<string, number> =>
  json && typeof json === "object" && !Array.isArray(json) ? (json as Record<string, number>) : {};

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
  return prices.length
    ? { lowCents: Math.min(...prices), highCents: Math.max(...prices) }
    : { lowCents: contract.unitCostCents, highCents: contract.unitCostCents };
}

/**
 * What one piece of a campaign costs: a gift campaign that names a vendor's product costs that
 * product's price at the vendor (giftPriceCents, the price its form shows); any other piece its
 * contract's price to the recipient's country. No contract: nothing.
 */
export function pieceCostCents(
  campaign: { format: string; giftPriceCents?: number | null; contract: TContractPrices | null },
  country: string | null | undefined,
): number {
  if (!campaign.contract) return 0;
  if (campaign.format === "gift" && Number.isInteger(campaign.giftPriceCents) && campaign.giftPriceCents! > 0)
    return campaign.giftPriceCents!;
  return pricePerPiece(campaign.contract, country);
}
