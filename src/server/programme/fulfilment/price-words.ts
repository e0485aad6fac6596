import { priceRange, type TContractPrices } from "@/server/records/pieces/contract-price";

/**
 * What a piece costs on a contract, in words, for the owner's pages and agents' cards alike. A
 * piece is charged its recipient's country's price (prices.ts `pricePerPiece`), so a contract
 * whose prices differ by country is said as its range, never as its highest price alone.
 * Pure: the browser imports it too.
 */

/** Cents as money: the owner's pages pass "$2.18" (components/ui/format), agents' cards "2.18 USD". */
export type TMoneyWords = (cents: number) => string;

const dollars = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const usdSign: TMoneyWords = (cents) => dollars.format(cents / 100);

/**
 * The lowest and highest a piece is charged on a contract. A country without a price of its own
 * (or a recipient without a country) pays the highest, `unitCostCents`, so the top is never below it.
 */
export function chargedPriceRange(contract: TContractPrices): { lowCents: number; highCents: number } {
  const { lowCents, highCents } = priceRange(contract);
  return {
    lowCents: Math.min(lowCents, contract.unitCostCents),
    highCents: Math.max(highCents, contract.unitCostCents),
  };
}

/** True when the contract's pieces cost differently by the recipient's country. */
export const pricesVaryByCountry = (contract: TContractPrices): boolean => {
  const r = chargedPriceRange(contract);
  return r.lowCents !== r.highCents;
};

/** The amount alone: "$2.18", or "$1.04 to $2.18" when the price depends on the recipient's country. */
export function piecePriceAmount(contract: TContractPrices, money: TMoneyWords = usdSign): string {
  const { lowCents, highCents } = chargedPriceRange(contract);
  return lowCents === highCents ? money(highCents) : `${money(lowCents)} to ${money(highCents)}`;
}

/**
 * The price as a phrase: "$2.18 a piece", or "$1.04 to $2.18 a piece, by the recipient's country"
 * when the prices differ by country. `per` names the unit ("a piece", "per piece").
 */
export function piecePriceWords(contract: TContractPrices, money: TMoneyWords = usdSign, per = "a piece"): string {
  return `${piecePriceAmount(contract, money)} ${per}${pricesVaryByCountry(contract) ? ", by the recipient's country" : ""}`;
}
