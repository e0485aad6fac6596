import { z } from "zod";
import { pricePerPiece, type TContractPrices } from "@/server/records/pieces/contract-price";

/** What a piece costs on a contract, as agents read it: its highest price, its lowest, and the price per country. */
export const ZContractPrices = z.object({
  unitCostCents: z
    .number()
    .int()
    .describe("Highest price per piece in cents (USD), printing and postage, among its countries."),
  lowCostCents: z.number().int().describe("Lowest price per piece in cents."),
  countryPrices: z
    .record(z.string(), z.number().int())
    .describe("Price per piece in cents by the recipient's country (ISO code)."),
});

export function contractPricesView(c: TContractPrices & { countries: string[] }): z.infer<typeof ZContractPrices> {
  const countryPrices = Object.fromEntries(c.countries.map((country) => [country, pricePerPiece(c, country)]));
  const prices = Object.values(countryPrices);
  return {
    unitCostCents: c.unitCostCents,
    lowCostCents: prices.length ? Math.min(...prices) : c.unitCostCents,
    countryPrices,
  };
}
