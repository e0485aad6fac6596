import { describe, expect, it } from "vitest";
import { addressBlockLines, formatAddressLines } from "@/server/records/addresses/address-block";
import { addressKey, reviewAddress } from "@/server/records/addresses/checks";
import { canonicalPostalCode, normalisationNotes, normaliseAddress } from "@/server/records/addresses/normalise";
import { MAILABILITY_REASONS, type TMailabilityReason } from "./reasons";
import { reasonPhrases } from "./reason-words";
import {
  AUDIENCE_FACTS,
  lifecycleOutcome,
  type TAuditContact,
  type TContactFacts,
  type TSharedFacts,
  verdictOf,
} from "./verdict";
import { sandboxVerdict } from "./verifiers/sandbox";
import type { TVerification } from "./verifiers/types";

const person = (a: Partial<TAuditContact>): TAuditContact => ({
  firstName: "Ada",
  lastName: "Okafor",
  addressLine1: null,
  addressLine2: null,
  city: null,
  region: null,
  postalCode: null,
  country: null,
  addressStatus: "unverified",
  ...a,
});
const clean: TContactFacts = { suppressed: false };
const audience = AUDIENCE_FACTS;
const postcard6x9: TSharedFacts = {
  format: "postcard",
  block: { format: "postcard", size: "6x9" },
  coveredCountries: null,
};
const gift: TSharedFacts = { format: "gift", block: { format: "gift", size: "4x6" }, coveredCountries: null };
const verified = (verdict: TVerification["verdict"], vendorVerdict: string = verdict): TVerification => ({
  verdict,
  vendorVerdict,
  standardised: null,
});

/** Real addresses (public offices), as each country's post writes them. */
const GOOD = {
  US: person({
    addressLine1: "500 Boylston St",
    addressLine2: "Floor 12",
    city: "Boston",
    region: "MA",
    postalCode: "02116",
    country: "US",
  }),
  GB: person({ addressLine1: "1 Canada Square", city: "London", postalCode: "E14 5AB", country: "GB" }),
  DE: person({ addressLine1: "Friedrichstraße 68", city: "Berlin", postalCode: "10117", country: "DE" }),
  FR: person({ addressLine1: "8 Rue de Londres", city: "Paris", postalCode: "75009", country: "FR" }),
  JP: person({
    addressLine1: "6-10-1 Roppongi",
    city: "Minato-ku",
    region: "Tokyo",
    postalCode: "106-6108",
    country: "JP",
  }),
  BR: person({
    addressLine1: "Av. Brigadeiro Faria Lima, 3477",
    city: "São Paulo",
    region: "SP",
    postalCode: "04538-133",
    country: "BR",
  }),
  CA: person({
    addressLine1: "111 Richmond St W",
    city: "Toronto",
    region: "ON",
    postalCode: "M5H 2G4",
    country: "CA",
  }),
};
type Country = keyof typeof GOOD;
const COUNTRIES = Object.keys(GOOD) as Country[];

describe("a contact's mailability", () => {
  it("a complete address in each of US, GB, DE, FR, JP, BR and CA is mailable in every format", () => {
    for (const country of COUNTRIES) {
      for (const shared of [audience, postcard6x9, gift])
        expect(verdictOf(GOOD[country], shared, clean), `${country} ${shared.format}`).toEqual({
          status: "mailable",
          reasons: [],
        });
    }
  });

  it("the closed list has the 15 reasons named by the issue", () => {
    expect(MAILABILITY_REASONS).toEqual([
      "missing_name",
      "missing_address",
      "missing_city",
      "missing_postal_code",
      "invalid_postal_code",
      "invalid_region",
      "unknown_country",
      "unsupported_country",
      "po_box",
      "missing_unit",
      "undeliverable",
      "duplicate_address",
      "duplicate_contact",
      "suppressed",
      "address_too_long",
    ]);
  });

  // One case per reason and country: the address of that country with just that problem.
  const cases: Record<
    TMailabilityReason,
    (c: Country) => {
      contact: TAuditContact;
      shared?: TSharedFacts;
      own?: TContactFacts;
      status: "mailable" | "fixable" | "unmailable";
    }
  > = {
    missing_name: (c) => ({ contact: { ...GOOD[c], firstName: " ", lastName: "" }, status: "unmailable" }),
    missing_address: (c) => ({ contact: { ...GOOD[c], addressLine1: null, addressLine2: null }, status: "unmailable" }),
    missing_city: (c) => ({ contact: { ...GOOD[c], city: "" }, status: "unmailable" }),
    missing_postal_code: (c) => ({ contact: { ...GOOD[c], postalCode: null }, status: "unmailable" }),
    invalid_postal_code: (c) => ({ contact: { ...GOOD[c], postalCode: "ABC-XYZ-1" }, status: "unmailable" }),
    invalid_region: (c) => ({ contact: { ...GOOD[c], region: "Narnia" }, status: "unmailable" }),
    unknown_country: (c) => ({ contact: { ...GOOD[c], country: "Atlantis" }, status: "unmailable" }),
    unsupported_country: (c) => ({
      contact: GOOD[c],
      shared: { ...postcard6x9, coveredCountries: new Set(["AU"]) },
      status: "unmailable",
    }),
    po_box: (c) => ({
      contact: {
        ...GOOD[c],
        addressLine1: c === "DE" ? "Postfach 10 01 01" : c === "FR" ? "Boîte Postale 12" : "PO Box 1234",
        addressLine2: null,
      },
      shared: gift,
      status: "unmailable",
    }),
    missing_unit: (c) => ({
      contact: GOOD[c],
      own: { suppressed: false, verification: verified("deliverable_missing_unit") },
      status: "unmailable",
    }),
    undeliverable: (c) => ({
      contact: GOOD[c],
      own: { suppressed: false, verification: verified("undeliverable") },
      status: "unmailable",
    }),
    duplicate_address: (c) => ({
      contact: GOOD[c],
      own: { suppressed: false, duplicateAddress: true },
      status: "mailable",
    }),
    duplicate_contact: (c) => ({
      contact: GOOD[c],
      own: { suppressed: false, duplicateContact: true, duplicateAddress: true },
      status: "unmailable",
    }),
    suppressed: (c) => ({ contact: GOOD[c], own: { suppressed: true }, status: "unmailable" }),
    address_too_long: (c) => ({
      contact: {
        ...GOOD[c],
        addressLine2: "Attn: Accounts Payable Department, Building 7 East Wing, Mail Stop 4400-B",
      },
      status: "unmailable",
    }),
  };

  // Japan's post needs no city line (the ward is in the street lines); Britain's, Germany's and France's print no region.
  const NOT_A_DEFECT: Partial<Record<TMailabilityReason, Country[]>> = {
    missing_city: ["JP"],
    invalid_region: ["GB", "DE", "FR"],
  };

  for (const reason of MAILABILITY_REASONS) {
    it(`${reason}: named for a real address of each of US, GB, DE, FR, JP, BR and CA`, () => {
      for (const country of COUNTRIES) {
        if (NOT_A_DEFECT[reason]?.includes(country)) {
          expect(verdictOf(cases[reason](country).contact, audience, clean), `${reason} in ${country}`).toEqual({
            status: "mailable",
            reasons: [],
          });
          continue;
        }
        const { contact, shared = audience, own = clean, status } = cases[reason](country);
        const v = verdictOf(contact, shared, own);
        expect(v.reasons, `${reason} in ${country}`).toEqual([reason]);
        expect(v.status, `${reason} in ${country}`).toBe(status);
      }
    });
  }

  it("a PO box informs for postcards and letters and stops a gift, as the gift lifecycle does", () => {
    const box = { ...GOOD.US, addressLine1: "PO Box 1234", addressLine2: null };
    expect(verdictOf(box, postcard6x9, clean)).toEqual({ status: "mailable", reasons: ["po_box"] });
    expect(verdictOf(box, gift, clean)).toEqual({ status: "unmailable", reasons: ["po_box"] });
    expect(lifecycleOutcome(verdictOf(box, gift, clean), "gift")).toEqual({
      gate: "address_invalid",
      reasons: ["po_box"],
    });
    expect(lifecycleOutcome(verdictOf(box, postcard6x9, clean), "postcard")).toEqual({ gate: "ok", reasons: [] });
  });

  it("address_too_long is measured against each format's own block: a line that fits a letter window may not fit a 4×6 postcard", () => {
    // "Senior Director, Strategic Sourcing, Brightline Holdings Group LLC": 31 em at 1 pt, where a letter's window takes 33.5 and a 4 × 6 postcard's 29.7.
    const long = { ...GOOD.US, title: "Senior Director, Strategic Sourcing", company: "Brightline Holdings Group LLC" };
    expect(verdictOf(long, { ...postcard6x9, block: { format: "letter", size: "us_letter" } }, clean).reasons).toEqual(
      [],
    );
    expect(verdictOf(long, audience, clean).reasons).toEqual(["address_too_long"]);
    expect(addressBlockLines(long)).toEqual([
      "Ada Okafor",
      "Senior Director, Strategic Sourcing, Brightline Holdings Group LLC",
      "500 Boylston St",
      "Floor 12",
      "Boston, MA 02116",
    ]);
    // Too many lines for the block: a Japanese address with a long building line on a 4 × 6 postcard.
    expect(
      verdictOf(
        { ...GOOD.JP, addressLine2: "Roppongi Hills Mori Tower 40F", company: "Brightline KK", title: "CEO" },
        audience,
        clean,
      ).reasons,
    ).toEqual([]);
  });

  it("the lifecycle's gates map the verdict: suppressed first, then any address reason, then a duplicate person", () => {
    expect(
      lifecycleOutcome(verdictOf(GOOD.DE, postcard6x9, { suppressed: true, duplicateContact: true }), "postcard"),
    ).toEqual({ gate: "suppressed", reasons: ["suppressed"] });
    expect(
      lifecycleOutcome(
        verdictOf({ ...GOOD.DE, city: null }, postcard6x9, { suppressed: false, duplicateContact: true }),
        "postcard",
      ),
    ).toEqual({ gate: "address_invalid", reasons: ["missing_city"] });
    expect(
      lifecycleOutcome(verdictOf(GOOD.DE, postcard6x9, { suppressed: false, duplicateContact: true }), "postcard"),
    ).toEqual({ gate: "address_duplicate", reasons: ["duplicate_contact"] });
    expect(
      lifecycleOutcome(verdictOf(GOOD.DE, postcard6x9, { suppressed: false, duplicateAddress: true }), "postcard"),
    ).toEqual({ gate: "ok", reasons: [] });
  });
});

describe("suggested fixes", () => {
  it("mends postal codes a spreadsheet damaged, in several countries", () => {
    expect(verdictOf({ ...GOOD.US, postalCode: "2116" }, audience, clean)).toEqual({
      status: "fixable",
      reasons: ["invalid_postal_code"],
      suggestion: { postalCode: "02116" },
    });
    expect(verdictOf({ ...GOOD.US, postalCode: "021161234" }, audience, clean).suggestion).toEqual({
      postalCode: "02116-1234",
    });
    // Japan Post's pattern (Google's data) takes the code with or without its hyphen; a space is a damaged one.
    expect(verdictOf({ ...GOOD.JP, postalCode: "1066108" }, audience, clean).status).toBe("mailable");
    expect(verdictOf({ ...GOOD.JP, region: "東京都", postalCode: "106 6108" }, audience, clean).suggestion).toEqual({
      postalCode: "106-6108",
    });
    // Where the post prints no region (FR, DE) nothing confirms a lost leading zero: no fix is offered.
    expect(verdictOf({ ...GOOD.FR, postalCode: "6000", city: "Nice" }, audience, clean)).toEqual({
      status: "unmailable",
      reasons: ["invalid_postal_code"],
    });
    expect(verdictOf({ ...GOOD.DE, postalCode: "1067", city: "Dresden" }, audience, clean)).toEqual({
      status: "unmailable",
      reasons: ["invalid_postal_code"],
    });
    // Spain's post prints the province, whose codes confirm it: 8008 in Barcelona is 08008.
    const barcelona = person({
      addressLine1: "Passeig de Gràcia 92",
      city: "Barcelona",
      region: "Barcelona",
      postalCode: "8008",
      country: "ES",
    });
    expect(verdictOf(barcelona, audience, clean)).toEqual({
      status: "fixable",
      reasons: ["invalid_postal_code"],
      suggestion: { postalCode: "08008" },
    });
    expect(verdictOf({ ...GOOD.BR, postalCode: "04538 133" }, audience, clean).status).not.toBe("unmailable");
    expect(canonicalPostalCode("GB", "e145ab")).toBe("E14 5AB");
    expect(canonicalPostalCode("CA", "m5h2g4")).toBe("M5H 2G4");
    expect(canonicalPostalCode("BR", "04538133")).toBe("04538-133");
  });

  it("puts a ZIP's lost leading zero back only where the state confirms it, and says so (the walk's 9501 in CA)", () => {
    // 09501 is no Californian ZIP: the code stays as written, so the normalised form and the verdict agree.
    const cupertino = {
      ...GOOD.US,
      addressLine1: "1 Infinite Loop",
      addressLine2: null,
      city: "Cupertino",
      region: "CA",
      postalCode: "9501",
    };
    expect(verdictOf(cupertino, audience, clean)).toEqual({ status: "unmailable", reasons: ["invalid_postal_code"] });
    expect(normaliseAddress(cupertino).postalCode).toBe("9501");
    expect(normalisationNotes(cupertino)).toEqual([
      "Postal code 9501 left as written: 09501, with a lost leading zero put back, is not a postal code of CA.",
    ]);
    // A Boston ZIP a spreadsheet cut to four digits: put back, said, and the suggested fix.
    expect(normaliseAddress({ ...GOOD.US, postalCode: "2116" }).postalCode).toBe("02116");
    expect(normalisationNotes({ ...GOOD.US, postalCode: "2116" })).toEqual([
      "Postal code 2116 read as 02116 (a spreadsheet drops leading zeros).",
    ]);
    expect(normalisationNotes({ ...GOOD.US, region: "Massachusetts", postalCode: "2116-1234" })).toEqual([
      "Postal code 2116-1234 read as 02116-1234 (a spreadsheet drops leading zeros).",
    ]);
    // Without a state nothing confirms the zero.
    const stateless = { ...GOOD.US, region: null, postalCode: "2116" };
    expect(verdictOf(stateless, audience, clean)).toEqual({
      status: "unmailable",
      reasons: ["invalid_postal_code", "invalid_region"],
    });
    expect(normaliseAddress(stateless).postalCode).toBe("2116");
    expect(normalisationNotes(stateless)).toEqual([
      "Postal code 2116 left as written: without a known state, a lost leading zero (02116) cannot be confirmed.",
    ]);
    // Where the post prints no region, nothing confirms the zero (1067 may be Dresden's 01067 or a code cut short); a code that needs nothing says nothing.
    expect(normalisationNotes({ ...GOOD.DE, postalCode: "1067", city: "Dresden" })).toEqual([
      "Postal code 1067 left as written: it does not fit DE, and nothing in the address confirms that a leading zero was lost (01067); a digit may be missing elsewhere.",
    ]);
    expect([normalisationNotes(GOOD.US), normalisationNotes({ ...GOOD.US, postalCode: "021161234" })]).toEqual([
      [],
      [],
    ]);
    // The key that finds duplicate and suppressed addresses still reads both forms as one code.
    expect(addressKey(cupertino)).toBe(addressKey({ ...cupertino, postalCode: "09501" }));
  });

  it("offers no leading zero for München's 8033, where nothing confirms it (08033 is Zwickau's), and still does for a Boston ZIP, whose state confirms it", () => {
    const greta = person({
      firstName: "Greta",
      lastName: "Schmidt",
      addressLine1: "Hauptstraße 5",
      city: "München",
      postalCode: "8033",
      country: "DE",
    });
    expect(verdictOf(greta, audience, clean)).toEqual({ status: "unmailable", reasons: ["invalid_postal_code"] });
    expect(normaliseAddress(greta)).toEqual({
      addressLine1: "Hauptstraße 5",
      addressLine2: null,
      city: "München",
      region: null,
      postalCode: "8033",
      country: "DE",
    });
    expect(reviewAddress(greta)).toEqual(["postal code 8033 does not fit DE"]);
    expect(reasonPhrases(greta, ["invalid_postal_code"])).toEqual(["postal code 8033 does not fit DE"]);
    expect(normalisationNotes(greta)).toEqual([
      "Postal code 8033 left as written: it does not fit DE, and nothing in the address confirms that a leading zero was lost (08033); a digit may be missing elsewhere.",
    ]);
    // A gift's shipping form reads the same verdict: no "Did you mean 08033?".
    expect(verdictOf(greta, gift, clean).suggestion).toBeUndefined();
    const ada = person({
      addressLine1: "500 Boylston St",
      city: "Boston",
      region: "MA",
      postalCode: "2116",
      country: "US",
    });
    expect(verdictOf(ada, audience, clean)).toEqual({
      status: "fixable",
      reasons: ["invalid_postal_code"],
      suggestion: { postalCode: "02116" },
    });
    expect(normalisationNotes(ada)).toEqual(["Postal code 2116 read as 02116 (a spreadsheet drops leading zeros)."]);
  });

  it("suggests a country's ISO code for its name and a region's code for its name", () => {
    expect(verdictOf({ ...GOOD.DE, country: "Deutschland" }, audience, clean)).toEqual({
      status: "fixable",
      reasons: ["unknown_country"],
      suggestion: { country: "DE" },
    });
    expect(verdictOf({ ...GOOD.GB, country: "United Kingdom" }, audience, clean).suggestion).toEqual({ country: "GB" });
    // A region written as its name (without its accent) is the region: mailable, normalised to the code.
    expect(verdictOf({ ...GOOD.BR, region: "Sao Paulo" }, audience, clean)).toEqual({
      status: "mailable",
      reasons: [],
    });
    expect(normaliseAddress({ ...GOOD.BR, region: "Sao Paulo" }).region).toBe("SP");
    expect(verdictOf({ ...GOOD.BR, region: "Sao Paolo" }, audience, clean)).toEqual({
      status: "unmailable",
      reasons: ["invalid_region"],
    });
    // A region written out in full is already the region: mailable, and its normalised form is the code.
    expect(verdictOf({ ...GOOD.CA, region: "Ontario" }, audience, clean).status).toBe("mailable");
    expect(normaliseAddress({ ...GOOD.CA, region: "Ontario", postalCode: "m5h2g4" })).toMatchObject({
      region: "ON",
      postalCode: "M5H 2G4",
    });
  });

  it("leaves a region alone where the post prints none (Bayern, Kent), and writes Japan's prefecture as Japan Post does, in the address's script", () => {
    // Written in Latin script, the prefecture stays in Latin script: the fix mends the postal code only.
    expect(verdictOf({ ...GOOD.JP, postalCode: "106 6108" }, audience, clean)).toEqual({
      status: "fixable",
      reasons: ["invalid_postal_code"],
      suggestion: { postalCode: "106-6108" },
    });
    expect(normaliseAddress({ ...GOOD.JP, region: "東京" }).region).toBe("東京都");
    expect(normaliseAddress({ ...GOOD.DE, region: "Bayern" }).region).toBe("Bayern");
    expect(normaliseAddress({ ...GOOD.GB, region: "Kent", postalCode: "e145ab" })).toMatchObject({
      region: "Kent",
      postalCode: "E14 5AB",
    });
  });

  it("a correction is suggested only when it makes the contact mailable", () => {
    expect(verdictOf({ ...GOOD.US, postalCode: "2116", city: null }, audience, clean)).toEqual({
      status: "unmailable",
      reasons: ["missing_city", "invalid_postal_code"],
    });
    expect(verdictOf({ ...GOOD.DE, postalCode: "ABC" }, audience, clean).status).toBe("unmailable");
    expect(verdictOf({ ...GOOD.US, postalCode: "2116" }, audience, { suppressed: true }).status).toBe("unmailable");
  });
});

describe("formatting and the sandbox verifier", () => {
  it("formats each country's lines with its post's template and names a foreign country last", () => {
    expect(formatAddressLines(GOOD.US)).toEqual(["500 Boylston St", "Floor 12", "Boston, MA 02116"]);
    expect(formatAddressLines(GOOD.DE)).toEqual(["Friedrichstraße 68", "10117 Berlin", "GERMANY"]);
    expect(formatAddressLines(GOOD.GB)).toEqual(["1 Canada Square", "London", "E14 5AB", "UNITED KINGDOM"]);
    expect(formatAddressLines(GOOD.CA)).toEqual(["111 Richmond St W", "Toronto, ON M5H 2G4", "CANADA"]);
  });

  it("answers by content, as vendors' test modes do, and verifies nothing else", () => {
    // A real address: the sandbox looks nothing up, so it says it verified nothing (never "deliverable").
    expect(sandboxVerdict({ addressLine1: "500 Boylston St", addressLine2: null })).toBe("not_verified");
    expect(
      verdictOf(GOOD.US, audience, { suppressed: false, verification: verified("not_verified", "sandbox") }),
    ).toEqual({ status: "mailable", reasons: [] });
    expect(sandboxVerdict({ addressLine1: "1 Undeliverable Way", addressLine2: null })).toBe("undeliverable");
    expect(sandboxVerdict({ addressLine1: "185 Berry St", addressLine2: "missing unit" })).toBe(
      "deliverable_missing_unit",
    );
    expect(sandboxVerdict({ addressLine1: "185 Berry St", addressLine2: "Unnecessary Unit 5" })).toBe(
      "deliverable_unnecessary_unit",
    );
    expect(
      verdictOf(GOOD.US, audience, { suppressed: false, verification: verified("deliverable_unnecessary_unit") })
        .status,
    ).toBe("mailable");
  });
});
