import { describe, expect, it } from "vitest";
import { addressKey } from "@/server/records/addresses/checks";
import { contactKeys } from "./keys";
import { normaliseEntry } from "./suppressions";

type TKeyed = { addressLine1: string; addressLine2: string | null; city: string; postalCode: string; country: string };
const us: TKeyed = {
  addressLine1: "77 Elm Street",
  addressLine2: null,
  city: "Springfield",
  postalCode: "62701",
  country: "US",
};
const key = (a: Partial<TKeyed>) => addressKey({ ...us, ...a });

describe("address keys: one address written two ways is one address", () => {
  it.each([
    ["77 Elm Street", "77 Elm St"],
    ["77 Elm Street", "77 ELM ST."],
    ["77 Elm Avenue", "77 Elm Ave"],
    ["77 Elm Boulevard", "77 Elm Blvd."],
    ["77 Elm Parkway", "77 Elm Pkwy"],
    ["77 North Elm Street", "77 N Elm St"],
    ["77 Elm St, Suite 300", "77 Elm St Ste #300"],
    ["77 Elm St Floor 4", "77 Elm St Fl 4"],
    ["77 Elm St Apartment 2B", "77 Elm St Apt 2B"],
    ["One Elm Street", "1 Elm St"],
  ])("US: %s = %s", (a, b) => {
    expect(key({ addressLine1: a })).toBe(key({ addressLine1: b }));
  });

  it("reads a unit on either street line, a ZIP+4 as its ZIP, and case and spacing not at all", () => {
    expect(key({ addressLine1: "77 Elm St", addressLine2: "Suite 300" })).toBe(
      key({ addressLine1: "77 Elm Street Ste 300" }),
    );
    expect(key({ postalCode: "62701-1234" })).toBe(key({ postalCode: "62701" }));
    expect(key({ postalCode: "627011234" })).toBe(key({ postalCode: "62701" }));
    expect(key({ city: "  SPRINGFIELD " })).toBe(key({}));
    expect(key({ country: "United States" })).toBe(key({}));
  });

  it.each([
    ["DE", "Friedrichstraße 68", "Friedrichstr. 68", "10117", "Berlin"],
    ["DE", "Friedrichstrasse 68", "FRIEDRICHSTR 68", "10117", "Berlin"],
    ["DE", "Domkloster 4", "Domkloster 4", "50667", "Köln"],
    ["FR", "55 Avenue Montaigne", "55 Av. Montaigne", "75008", "Paris"],
    ["FR", "8 Rue de Londres", "8 rue de Londres", "75009", "Paris"],
    ["FR", "12 Boulevard Haussmann", "12 Bd Haussmann", "75009", "Paris"],
    ["ES", "Avenida de América 10", "Av. de América 10", "28002", "Madrid"],
    ["NL", "Keizersgracht 123", "keizersgracht 123", "1015 CJ", "Amsterdam"],
    ["GB", "1 Canada Square, Floor 12", "1 Canada Sq Fl 12", "E14 5AB", "London"],
    ["IT", "Viale Monza 12", "V.le Monza 12", "20127", "Milano"],
  ])("%s: %s = %s", (country, a, b, postalCode, city) => {
    expect(addressKey({ country, postalCode, city, addressLine1: a, addressLine2: null })).toBe(
      addressKey({ country, postalCode, city, addressLine1: b, addressLine2: null }),
    );
  });

  it("keeps accents out of the key but letters of every script in it", () => {
    expect(
      addressKey({
        country: "DE",
        postalCode: "50667",
        city: "Köln",
        addressLine1: "Domkloster 4",
        addressLine2: null,
      }),
    ).toBe(
      addressKey({
        country: "DE",
        postalCode: "50667",
        city: "Koln",
        addressLine1: "Domkloster 4",
        addressLine2: null,
      }),
    );
    const tokyo = { country: "JP", postalCode: "100-0005", city: null, addressLine2: null };
    expect(addressKey({ ...tokyo, addressLine1: "千代田区丸の内1-9-1" })).not.toBe(
      addressKey({ ...tokyo, addressLine1: "千代田区丸の内2-7-2" }),
    );
    expect(addressKey({ ...tokyo, addressLine1: "千代田区丸の内１－９－１" })).toBe(
      addressKey({ ...tokyo, addressLine1: "千代田区丸の内1-9-1" }),
    );
  });

  it("still tells different addresses apart: another number, street, unit or postcode", () => {
    expect(key({ addressLine1: "79 Elm St" })).not.toBe(key({}));
    expect(key({ addressLine1: "77 Oak St" })).not.toBe(key({}));
    expect(key({ addressLine1: "77 Elm Ave" })).not.toBe(key({}));
    expect(key({ addressLine2: "Suite 300" })).not.toBe(key({ addressLine2: "Suite 301" }));
    expect(key({ postalCode: "62702" })).not.toBe(key({}));
  });

  it("a contact's keys and an address suppression's value agree on one address written two ways", () => {
    const contact = contactKeys({
      firstName: "Ada",
      lastName: "Okafor",
      region: "IL",
      ...us,
      addressLine1: "77 Elm St",
      postalCode: "62701-4410",
    });
    const suppression = normaliseEntry({
      reason: "opt-out",
      address: { addressLine1: "77 Elm Street", city: "springfield", postalCode: "62701", country: "USA" },
    });
    expect(suppression).toMatchObject({ kind: "address", value: contact.addressKey });
  });
});
