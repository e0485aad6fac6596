import { describe, expect, it } from "vitest";
import { addressBlock, isPoBox, mergeValues } from "./recipient";
import { fillTemplate, mergeFieldProblems } from "./merge-fields";

const ada = mergeValues({
  id: "ctc_1",
  firstName: "Ada",
  lastName: "Okafor",
  title: "VP",
  email: "ada@brightline.example",
  addressLine1: "500 Boylston St",
  addressLine2: null,
  city: "Boston",
  region: "MA",
  postalCode: "02116",
  country: "US",
  account: { name: "Brightline", domain: "brightline.example" },
  customFields: { industry: "Logistics" },
} as never);

describe("merge fields", () => {
  it("fills fields from the contact, the account and custom fields", () => {
    expect(
      fillTemplate("Hi {{firstName}} at {{ company }} ({{companyDomain}}), {{fullName}} in {{custom.industry}}", ada),
    ).toEqual({
      text: "Hi Ada at Brightline (brightline.example), Ada Okafor in Logistics",
      missing: [],
      fallbacks: [],
    });
  });

  it("prints the fallback when the contact has no value, and reports a field left empty without one", () => {
    const blank = { ...ada, firstName: "", company: null };
    expect(fillTemplate("Hi {{firstName|there}} at {{company|your team}}", blank)).toEqual({
      text: "Hi there at your team",
      missing: [],
      fallbacks: ["firstName", "company"],
    });
    expect(fillTemplate("Hi {{firstName}},", blank)).toEqual({ text: "Hi ,", missing: ["firstName"], fallbacks: [] });
  });

  it("fills a custom field by its name as imported, spaces and accents included", () => {
    const imported = { ...ada, custom: { "Lead Source": "Webinar", "Région préférée": "Île-de-France" } };
    expect(mergeFieldProblems("From {{custom.Lead Source}} in {{ custom.Région préférée }}")).toEqual([]);
    expect(fillTemplate("From {{custom.Lead Source}} in {{ custom.Région préférée }}", imported)).toEqual({
      text: "From Webinar in Île-de-France",
      missing: [],
      fallbacks: [],
    });
    // Another spelling is another field: this contact has none, so the fallback prints.
    expect(fillTemplate("From {{custom.Lead_Source|a friend}}", imported)).toEqual({
      text: "From a friend",
      missing: [],
      fallbacks: ["custom.Lead_Source"],
    });
    // A name longer than a custom field's can be is refused, as an unknown field.
    expect(mergeFieldProblems(`{{custom.${"x".repeat(65)}}}`)[0]).toMatch(
      /^uses unknown merge fields: \{\{custom\.x{65}\}\}\./,
    );
  });

  it("refuses an unknown field with the list of known ones, and braces that do not close", () => {
    expect(mergeFieldProblems("Hi {{first_name}} {{firstName}}")).toEqual([
      "uses unknown merge fields: {{first_name}}. Known fields: firstName, lastName, fullName, title, email, company, companyDomain, city, region, country, and custom.<name> for a contact's custom fields; add a fallback after a bar, as in {{firstName|there}}.",
    ]);
    expect(mergeFieldProblems("Hi {{firstName")).toEqual([
      "has a {{ without its }} (or the other way round); write merge fields as {{firstName}}.",
    ]);
    expect(mergeFieldProblems("Hi {{custom.plan_tier|friend}}")).toEqual([]);
  });

  it("prints addresses in each country's order and recognises PO boxes", () => {
    const c = {
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
    };
    expect(addressBlock(c)).toEqual(["Ada Okafor", "VP, Brightline", "500 Boylston St", "Floor 3", "Boston, MA 02116"]);
    expect(
      addressBlock({ ...c, country: "GB", city: "London", region: null, postalCode: "E14 5AB" }).slice(-3),
    ).toEqual(["London", "E14 5AB", "UNITED KINGDOM"]);
    expect(addressBlock({ ...c, country: "DE", city: "Berlin", region: null, postalCode: "10117" }).slice(-2)).toEqual([
      "10117 Berlin",
      "GERMANY",
    ]);
    expect(isPoBox({ addressLine1: "P.O. Box 123", addressLine2: null })).toBe(true);
    expect(isPoBox({ addressLine1: "PO BOX 9", addressLine2: null })).toBe(true);
    expect(isPoBox({ addressLine1: "500 Boxwood Ave", addressLine2: null })).toBe(false);
    expect(isPoBox({ addressLine1: "Boîte Postale 12", addressLine2: null })).toBe(true);
    expect(isPoBox({ addressLine1: "Caixa Postal 1010", addressLine2: null })).toBe(true);
    expect(isPoBox({ addressLine1: "Bpm Street 4", addressLine2: null })).toBe(false);
  });
});
