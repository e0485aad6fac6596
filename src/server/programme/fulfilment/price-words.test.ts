import { describe, expect, it } from "vitest";
import { chargedPriceRange, piecePriceAmount, piecePriceWords, pricesVaryByCountry } from "./price-words";

const usd = (cents: number) => `${(cents / 100).toFixed(2)} USD`;

describe("a contract's price per piece in words (what each piece is charged, not its highest price)", () => {
  it("one price for every country is said as that price", () => {
    const contract = { unitCostCents: 218, countryPrices: { CA: 218, GB: 218 } };
    expect(pricesVaryByCountry(contract)).toBe(false);
    expect(piecePriceAmount(contract)).toBe("$2.18");
    expect(piecePriceWords(contract)).toBe("$2.18 a piece");
    expect(piecePriceWords(contract, usd, "per piece")).toBe("2.18 USD per piece");
  });

  it("prices that differ by country are said as their range, charged by the recipient's country", () => {
    const contract = { unitCostCents: 218, countryPrices: { US: 104, CA: 218, DE: 218 } };
    expect(pricesVaryByCountry(contract)).toBe(true);
    expect(chargedPriceRange(contract)).toEqual({ lowCents: 104, highCents: 218 });
    expect(piecePriceAmount(contract)).toBe("$1.04 to $2.18");
    expect(piecePriceWords(contract)).toBe("$1.04 to $2.18 a piece, by the recipient's country");
    expect(piecePriceWords(contract, usd)).toBe("1.04 USD to 2.18 USD a piece, by the recipient's country");
  });

  it("a contract made before prices were kept per country has one price, its unit cost", () => {
    expect(piecePriceWords({ unitCostCents: 95, countryPrices: {} })).toBe("$0.95 a piece");
    expect(piecePriceWords({ unitCostCents: 95, countryPrices: null })).toBe("$0.95 a piece");
  });

  it("a country without a price of its own pays the highest, so the range reaches the unit cost", () => {
    // Pieces to CA (no price kept) are charged 2.18 (prices.ts pricePerPiece): the range says so.
    expect(piecePriceWords({ unitCostCents: 218, countryPrices: { US: 104 } })).toBe(
      "$1.04 to $2.18 a piece, by the recipient's country",
    );
  });
});
