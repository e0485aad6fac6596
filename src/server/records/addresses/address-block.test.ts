import { describe, expect, it } from "vitest";
import { mergeValues, type RecipientContact } from "@/server/programme/designs/recipient";
import { addressBlockLines, fitsBlock, formatAddressLines, SMALLEST_BLOCK } from "./address-block";
import { printedName } from "./scripts";

const none = { addressLine1: null, addressLine2: null, city: null, region: null, postalCode: null, country: null };

/** The tester's Japanese contact: a Tokyo office written in Japanese script. */
const marunouchi = {
  ...none,
  firstName: "太郎",
  lastName: "山田",
  company: "株式会社テスト",
  addressLine1: "千代田区丸の内1-9-1",
  addressLine2: "グラントウキョウ 5階",
  city: "千代田区",
  region: "東京都",
  postalCode: "100-0005",
  country: "JP",
};

describe("a Japanese address in Japanese script prints from the largest unit to the smallest", () => {
  it("〒 and the code, prefecture + city + street on one line, the building, then the company, the name (family name first) and the country", () => {
    expect(formatAddressLines(marunouchi)).toEqual([
      "〒100-0005",
      "東京都千代田区丸の内1-9-1",
      "グラントウキョウ 5階",
      "JAPAN",
    ]);
    expect(addressBlockLines(marunouchi)).toEqual([
      "〒100-0005",
      "東京都千代田区丸の内1-9-1",
      "グラントウキョウ 5階",
      "株式会社テスト",
      "山田 太郎",
      "JAPAN",
    ]);
    // It still fits the smallest block the audit measures against (a 4 × 6 in postcard's).
    expect(fitsBlock(addressBlockLines(marunouchi), SMALLEST_BLOCK)).toBe(true);
  });

  it("writes each unit once, the prefecture as the post does, a seven-digit code with its hyphen, and the title after the company", () => {
    // No city field (Japan Post needs none), or a street line that already begins with the prefecture.
    expect(formatAddressLines({ ...marunouchi, city: null, addressLine2: null })).toEqual([
      "〒100-0005",
      "東京都千代田区丸の内1-9-1",
      "JAPAN",
    ]);
    expect(
      formatAddressLines({ ...marunouchi, addressLine1: "東京都千代田区丸の内1-9-1", addressLine2: null }),
    ).toEqual(["〒100-0005", "東京都千代田区丸の内1-9-1", "JAPAN"]);
    expect(
      formatAddressLines({
        ...marunouchi,
        addressLine1: "丸の内1-9-1",
        region: "Tokyo",
        postalCode: "1000005",
        addressLine2: null,
      }),
    ).toEqual(["〒100-0005", "東京都千代田区丸の内1-9-1", "JAPAN"]);
    expect(addressBlockLines({ ...marunouchi, addressLine2: null, title: "営業部長" })).toEqual([
      "〒100-0005",
      "東京都千代田区丸の内1-9-1",
      "株式会社テスト 営業部長",
      "山田 太郎",
      "JAPAN",
    ]);
  });

  it("a Japanese address written in Latin letters keeps the international order the Japanese post accepts for romanised addresses", () => {
    const roppongi = {
      ...none,
      firstName: "Taro",
      lastName: "Yamada",
      company: "Brightline KK",
      addressLine1: "6-10-1 Roppongi",
      addressLine2: "40F",
      city: "Minato-ku",
      region: "Tokyo",
      postalCode: "106-6108",
      country: "JP",
    };
    expect(addressBlockLines(roppongi)).toEqual([
      "Taro Yamada",
      "Brightline KK",
      "6-10-1 Roppongi",
      "40F",
      "Minato-ku, Tokyo 106-6108",
      "JAPAN",
    ]);
    // A name in Japanese script on a romanised address: family name first, the address in international order.
    expect(addressBlockLines({ ...roppongi, firstName: "太郎", lastName: "山田" })).toEqual([
      "山田 太郎",
      "Brightline KK",
      "6-10-1 Roppongi",
      "40F",
      "Minato-ku, Tokyo 106-6108",
      "JAPAN",
    ]);
  });

  it("other countries are unchanged", () => {
    expect(
      addressBlockLines({
        ...none,
        firstName: "Ada",
        lastName: "Okafor",
        title: "VP",
        company: "Brightline",
        addressLine1: "500 Boylston St",
        addressLine2: "Floor 3",
        city: "Boston",
        region: "MA",
        postalCode: "02116",
        country: "US",
      }),
    ).toEqual(["Ada Okafor", "VP, Brightline", "500 Boylston St", "Floor 3", "Boston, MA 02116"]);
    expect(
      formatAddressLines({
        ...none,
        addressLine1: "Friedrichstraße 68",
        city: "Berlin",
        postalCode: "10117",
        country: "DE",
      }),
    ).toEqual(["Friedrichstraße 68", "10117 Berlin", "GERMANY"]);
    expect(
      formatAddressLines({
        ...none,
        addressLine1: "Av. Paulista, 1578",
        city: "São Paulo",
        region: "SP",
        postalCode: "01310-200",
        country: "Brasil",
      }).at(-1),
    ).toBe("Brasil");
  });
});

describe("the recipient's name", () => {
  it("puts the family name first for a name in Japanese script, in the block and in {{fullName}}", () => {
    expect(printedName({ firstName: "太郎", lastName: "山田" })).toBe("山田 太郎");
    expect(printedName({ firstName: "はなこ", lastName: "佐藤" })).toBe("佐藤 はなこ");
    expect(printedName({ firstName: "Taro", lastName: "Yamada" })).toBe("Taro Yamada");
    expect(printedName({ firstName: "王芳", lastName: "" })).toBe("王芳");
    expect(printedName({ firstName: "Ada", lastName: "" })).toBe("Ada");
    const contact: RecipientContact = { id: "c1", title: null, email: null, account: null, ...marunouchi };
    expect(mergeValues(contact)).toMatchObject({ firstName: "太郎", lastName: "山田", fullName: "山田 太郎" });
    expect(mergeValues({ ...contact, firstName: "Ada", lastName: "Okafor" }).fullName).toBe("Ada Okafor");
  });
});
