import { describe, expect, it } from "vitest";
import { toCountryCode } from "./countries";

describe("country names and codes to ISO 3166-1 alpha-2", () => {
  it.each([
    ["United States", "US"],
    ["united states of america", "US"],
    ["USA", "US"],
    ["U.S.", "US"],
    ["U.S.A.", "US"],
    ["us", "US"],
    ["United Kingdom", "GB"],
    ["UK", "GB"],
    ["U.K.", "GB"],
    ["Great Britain", "GB"],
    ["England", "GB"],
    ["Deutschland", "DE"],
    ["de", "DE"],
    ["DEU", "DE"],
    ["276", "DE"],
    ["Germany", "DE"],
    ["Allemagne", "DE"],
    ["France", "FR"],
    ["España", "ES"],
    ["Espana", "ES"],
    ["Österreich", "AT"],
    ["Schweiz", "CH"],
    ["Japan", "JP"],
    ["日本", "JP"],
    ["Brasil", "BR"],
    ["Canada", "CA"],
    ["The Netherlands", "NL"],
    ["Holland", "NL"],
    ["Korea, Republic of", "KR"],
    ["  Ireland  ", "IE"],
  ])("%s -> %s", (input, code) => {
    expect(toCountryCode(input)).toBe(code);
  });

  it("gives null for what is not a country", () => {
    for (const input of ["Narnia", "Atlantis", "XX", "Spain (Canary Islands)", "", null, undefined, "123"])
      expect(toCountryCode(input)).toBeNull();
  });
});
