import { describe, expect, it } from "vitest";
import { addressBlockLines, fitsBlock, SMALLEST_BLOCK } from "./address-block";

/** A Kyoto office as a new user's CSV gave it: the street in Japanese, the city and prefecture in English. */
const kyoto = {
  firstName: "Hanako",
  lastName: "Sato",
  company: "Kyoto Works",
  addressLine1: "京都府京都市下京区東塩小路町721-1",
  addressLine2: null,
  city: "Kyoto",
  region: "Kyoto",
  postalCode: "600-8216",
  country: "JP",
};

describe("a Japanese address prints whole in one script, in the order Japan Post reads it", () => {
  it("a street written in Japanese: 〒 and the code, then the prefecture, city and street once, in Japanese only", () => {
    const lines = addressBlockLines(kyoto);
    expect(lines).toEqual(["〒600-8216", "京都府京都市下京区東塩小路町721-1", "Kyoto Works", "Hanako Sato", "JAPAN"]);
    // The English city and prefecture are not written beside the Japanese ones.
    expect(lines.join("\n")).not.toMatch(/京都府Kyoto|Kyoto〒|Kyoto京都/);
    // The prefecture in English becomes the post's own form; a city in English is left to the street line.
    expect(
      addressBlockLines({ ...kyoto, addressLine1: "下京区東塩小路町721-1", city: "京都市", postalCode: "6008216" }),
    ).toEqual(["〒600-8216", "京都府京都市下京区東塩小路町721-1", "Kyoto Works", "Hanako Sato", "JAPAN"]);
    expect(addressBlockLines({ ...kyoto, addressLine1: "京都市下京区東塩小路町721-1", region: "Kyoto-fu" })[1]).toBe(
      "京都府京都市下京区東塩小路町721-1",
    );
    expect(fitsBlock(lines, SMALLEST_BLOCK)).toBe(true);
  });

  it("a street written in Latin letters: the international order, with the prefecture's Latin name and no Japanese unit", () => {
    const romanised = {
      ...kyoto,
      addressLine1: "721-1 Higashishiokoji-cho, Shimogyo-ku",
      city: "Kyoto",
      region: "京都府",
    };
    expect(addressBlockLines(romanised)).toEqual([
      "Hanako Sato",
      "Kyoto Works",
      "721-1 Higashishiokoji-cho, Shimogyo-ku",
      "Kyoto, Kyoto 600-8216",
      "JAPAN",
    ]);
    // A city written in Japanese beside a Latin street is left out rather than mixed in.
    const lines = addressBlockLines({ ...romanised, city: "京都市" });
    expect(lines).toEqual([
      "Hanako Sato",
      "Kyoto Works",
      "721-1 Higashishiokoji-cho, Shimogyo-ku",
      "Kyoto 600-8216",
      "JAPAN",
    ]);
    expect(lines.join("\n")).not.toMatch(/\p{Script=Han}/u);
  });
});
