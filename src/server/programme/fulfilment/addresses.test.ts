import { describe, expect, it } from "vitest";
import { postalAddressOf } from "./addresses";

const address = {
  addressLine1: "千代田区丸の内1-9-1",
  addressLine2: null,
  city: "千代田区",
  region: "東京都",
  postalCode: "100-0005",
  country: "JP",
};

/** A vendor that prints the address block itself (Lob) gets the name in the order the preview shows it. */
describe("postalAddressOf", () => {
  it("writes a name in Japanese script family name first, any other given name first", () => {
    expect(
      postalAddressOf({ firstName: "太郎", lastName: "山田", company: "株式会社テスト", ...address }),
    ).toMatchObject({ name: "山田 太郎", company: "株式会社テスト", line1: "千代田区丸の内1-9-1" });
    expect(postalAddressOf({ firstName: "Taro", lastName: "Yamada", ...address })).toMatchObject({
      name: "Taro Yamada",
    });
    expect(postalAddressOf({ firstName: "Taro", lastName: "", ...address, addressLine1: null })).toBeNull();
  });
});
