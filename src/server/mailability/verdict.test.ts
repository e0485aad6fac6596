import { describe, expect, it } from "vitest";
import type { PostalAddress } from "@/server/entry/lifecycle/gates/address";
import { verdictOf, type VerdictContext } from "./verdict";

const at = (a: Partial<PostalAddress>): PostalAddress => ({ firstName: "Ada", lastName: "Okafor", addressLine1: null, addressLine2: null, city: null, region: null, postalCode: null, country: null, addressStatus: "unverified", ...a });
const none: VerdictContext = { suppressed: false, coveredCountries: null };

/** Real addresses, one per country, as their post writes them. */
const GOOD = {
  US: at({ addressLine1: "500 Boylston St", city: "Boston", region: "MA", postalCode: "02116", country: "US" }),
  GB: at({ addressLine1: "1 Canada Square", city: "London", postalCode: "E14 5AB", country: "GB" }),
  DE: at({ addressLine1: "Friedrichstraße 68", city: "Berlin", postalCode: "10117", country: "DE" }),
  FR: at({ addressLine1: "8 Rue de Londres", city: "Paris", postalCode: "75009", country: "FR" }),
  JP: at({ addressLine1: "6-10-1 Roppongi", city: "Minato-ku, Tokyo", postalCode: "106-6108", country: "JP" }),
  BR: at({ addressLine1: "Av. Brigadeiro Faria Lima, 3477", city: "São Paulo", region: "SP", postalCode: "04538-133", country: "BR" }),
  CA: at({ addressLine1: "111 Richmond St W", city: "Toronto", region: "ON", postalCode: "M5H 2G4", country: "CA" }),
};

describe("a contact's mailability (issue 14)", () => {
  it("a complete address in each of US, GB, DE, FR, JP, BR and CA is mailable", () => {
    for (const [country, a] of Object.entries(GOOD)) expect(verdictOf(a, none), country).toEqual({ status: "mailable", reasons: [] });
  });

  it("names each missing part, and an address without them is unmailable", () => {
    expect(verdictOf(at({ firstName: "", lastName: "", addressLine1: "1 Canada Square", city: "London", postalCode: "E14 5AB", country: "GB" }), none)).toEqual({ status: "unmailable", reasons: ["missing_name"] });
    expect(verdictOf(at({ city: "Berlin", postalCode: "10117", country: "DE" }), none).reasons).toEqual(["missing_address"]);
    expect(verdictOf(at({ addressLine1: "8 Rue de Londres", postalCode: "75009", country: "FR" }), none).reasons).toEqual(["missing_city"]);
    expect(verdictOf(at({ addressLine1: "6-10-1 Roppongi", city: "Tokyo", country: "JP" }), none).reasons).toEqual(["missing_postal_code"]);
    expect(verdictOf(at({ addressLine1: "1 Main St", city: "Springfield", postalCode: "12345" }), none).reasons).toEqual(["unknown_country"]);
    expect(verdictOf(at({ addressLine1: "1 Main St", city: "Springfield", postalCode: "12345", country: "XK1" }), none).reasons).toEqual(["unknown_country"]);
  });

  it("checks postal codes and regions per country", () => {
    expect(verdictOf({ ...GOOD.CA, postalCode: "12345" }, none)).toEqual({ status: "unmailable", reasons: ["invalid_postal_code"] });
    expect(verdictOf({ ...GOOD.US, region: "ON" }, none).reasons).toEqual(["invalid_region"]);
    expect(verdictOf({ ...GOOD.US, region: null }, none).reasons).toEqual(["invalid_region"]);
    expect(verdictOf({ ...GOOD.BR, region: "Massachusetts" }, none).reasons).toEqual(["invalid_region"]);
    // A region written out in full is the region.
    expect(verdictOf({ ...GOOD.CA, region: "Ontario" }, none).status).toBe("mailable");
  });

  it("offers the correction of a postal code a spreadsheet damaged, and only when it makes the code valid", () => {
    expect(verdictOf({ ...GOOD.US, postalCode: "2116" }, none)).toEqual({ status: "fixable", reasons: ["invalid_postal_code"], suggestion: { postalCode: "02116" } });
    expect(verdictOf({ ...GOOD.US, postalCode: "021161234" }, none).suggestion).toEqual({ postalCode: "02116-1234" });
    // The post reads British, Canadian and Brazilian codes without their space or hyphen: nothing to mend.
    expect(verdictOf({ ...GOOD.GB, postalCode: "e145ab" }, none).status).toBe("mailable");
    expect(verdictOf({ ...GOOD.CA, postalCode: "m5h2g4" }, none).status).toBe("mailable");
    expect(verdictOf({ ...GOOD.BR, postalCode: "04538133" }, none).status).toBe("mailable");
    expect(verdictOf({ ...GOOD.JP, postalCode: "1066108" }, none).suggestion).toEqual({ postalCode: "106-6108" });
    expect(verdictOf({ ...GOOD.FR, postalCode: "6000" }, none).suggestion).toEqual({ postalCode: "06000" });
    // Nothing to mend, or another blocking reason besides: unmailable, no suggestion.
    expect(verdictOf({ ...GOOD.DE, postalCode: "ABC" }, none)).toEqual({ status: "unmailable", reasons: ["invalid_postal_code"] });
    expect(verdictOf({ ...GOOD.US, postalCode: "2116", city: null }, none)).toEqual({ status: "unmailable", reasons: ["missing_city", "invalid_postal_code"] });
  });

  it("a country no approved printer covers, a suppression, a duplicate person and an undeliverable mark stop mail", () => {
    expect(verdictOf(GOOD.DE, { suppressed: false, coveredCountries: new Set(["US", "CA"]) })).toEqual({ status: "unmailable", reasons: ["unsupported_country"] });
    expect(verdictOf(GOOD.DE, { suppressed: false, coveredCountries: new Set(["DE"]) }).status).toBe("mailable");
    expect(verdictOf(GOOD.US, { suppressed: true, coveredCountries: null })).toEqual({ status: "unmailable", reasons: ["suppressed"] });
    expect(verdictOf(GOOD.GB, { ...none, duplicateContact: true })).toEqual({ status: "unmailable", reasons: ["duplicate_contact"] });
    expect(verdictOf({ ...GOOD.FR, addressStatus: "undeliverable", undeliverableReason: "returned" }, none)).toEqual({ status: "unmailable", reasons: ["undeliverable"] });
  });

  it("a shared office address and a PO box inform without stopping a postcard; a line too long for the address block stops it", () => {
    expect(verdictOf(GOOD.US, { ...none, duplicateAddress: true })).toEqual({ status: "mailable", reasons: ["duplicate_address"] });
    expect(verdictOf({ ...GOOD.US, addressLine1: "PO Box 1234" }, none)).toEqual({ status: "mailable", reasons: ["po_box"] });
    expect(verdictOf({ ...GOOD.DE, addressLine1: "Postfach 10 01 01" }, none).reasons).toEqual(["po_box"]);
    expect(verdictOf({ ...GOOD.US, addressLine1: "500 Boylston Street, Floor 12, Suite 1200, Attn Receiving" }, none)).toEqual({ status: "unmailable", reasons: ["address_too_long"] });
  });
});
