import { describe, expect, it } from "vitest";
import { addressKey, type PostalAddress, recipientKey, reviewAddress } from "./checks";

const base: PostalAddress = {
  firstName: "Ada",
  lastName: "Okafor",
  addressLine1: "500 Boylston St",
  addressLine2: "Floor 3",
  city: "Boston",
  region: "MA",
  postalCode: "02116",
  country: "US",
  addressStatus: "deliverable",
};

describe("reviewAddress", () => {
  it("passes complete addresses in several countries", () => {
    expect(reviewAddress(base)).toEqual([]);
    expect(reviewAddress({ ...base, country: "GB", region: null, postalCode: "E14 5AB", city: "London" })).toEqual([]);
    expect(reviewAddress({ ...base, country: "CA", region: "ON", postalCode: "M5X 1A9", city: "Toronto" })).toEqual([]);
    expect(reviewAddress({ ...base, country: "DE", region: null, postalCode: "10117", city: "Berlin" })).toEqual([]);
    expect(reviewAddress({ ...base, region: "Massachusetts" })).toEqual([]);
  });

  it("names each problem", () => {
    expect(reviewAddress({ ...base, addressLine1: " ", city: null })).toEqual(["no street address", "no city"]);
    expect(reviewAddress({ ...base, postalCode: "0211" })).toEqual(["postal code 0211 does not fit US"]);
    expect(reviewAddress({ ...base, postalCode: null })).toEqual(["no postal code"]);
    expect(reviewAddress({ ...base, region: null })).toEqual(["no state or province (required in US)"]);
    expect(reviewAddress({ ...base, region: "ZZ" })).toEqual(["region ZZ is not a region of US"]);
    expect(reviewAddress({ ...base, country: "XX" })).toEqual(["unknown country code XX"]);
    expect(reviewAddress({ ...base, country: null })).toEqual(["no country"]);
    expect(reviewAddress({ ...base, country: "CA", region: "ON", postalCode: "12345" })).toEqual([
      "postal code 12345 does not fit CA",
    ]);
    expect(
      reviewAddress({ ...base, addressStatus: "undeliverable", undeliverableReason: "returned: no such number" }),
    ).toEqual(["marked undeliverable — returned: no such number"]);
  });
});

describe("keys", () => {
  it("normalise case, punctuation and spacing", () => {
    expect(addressKey({ ...base, addressLine1: "500  boylston st.", addressLine2: "floor 3" })).toBe(addressKey(base));
    expect(recipientKey({ ...base, firstName: "ada " })).toBe(recipientKey(base));
    expect(recipientKey({ ...base, firstName: "Ben" })).not.toBe(recipientKey(base));
    expect(addressKey({ ...base, addressLine2: "Floor 4" })).not.toBe(addressKey(base));
  });
});
