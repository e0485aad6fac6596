import { describe, expect, it } from "vitest";
import { FileDuplicates, MatchIndex } from "./dedupe";
import { contactKeys, isFreeMailDomain, normaliseEmail, toDomain } from "./keys";

const person = (
  over: Partial<{
    firstName: string;
    lastName: string;
    addressLine1: string | null;
    city: string;
    region: string | null;
    postalCode: string;
    country: string;
  }> = {},
) => ({
  firstName: "Ada",
  lastName: "Lovelace",
  addressLine1: "1 Main St",
  addressLine2: null,
  city: "Boston",
  region: "MA",
  postalCode: "02116",
  country: "US",
  ...over,
});

describe("de-duplication", () => {
  it("one address written two ways has one key: the country's name or code, a postal code with its leading zero lost or its space missing", () => {
    const boston = contactKeys(person());
    expect(contactKeys(person({ postalCode: "2116" }))).toEqual(boston);
    expect(contactKeys(person({ country: "United States" }))).toEqual(boston);
    expect(contactKeys(person({ country: "us", postalCode: " 02116 " }))).toEqual(boston);
    const london = person({ city: "London", region: null, postalCode: "E14 5AB", country: "GB" });
    expect(contactKeys({ ...london, postalCode: "e145ab" })).toEqual(contactKeys(london));
    expect(contactKeys({ ...london, country: "United Kingdom" })).toEqual(contactKeys(london));
    // Another postal code is another address.
    expect(contactKeys(person({ postalCode: "02117" })).addressKey).not.toEqual(boston.addressKey);
  });

  it("finds a person by email (any case), else by CRM id, else by name and address", () => {
    const existing = [
      { id: "a", email: "ada@initech.com", crmId: null, matchKey: null },
      { id: "b", email: null, crmId: "crm-7", matchKey: null },
      { id: "c", email: null, crmId: null, matchKey: contactKeys(person()).matchKey },
    ];
    const index = new MatchIndex(existing);
    expect(index.find({ email: normaliseEmail(" ADA@Initech.COM "), crmId: null, matchKey: null })?.id).toBe("a");
    expect(index.find({ email: "new@initech.com", crmId: "crm-7", matchKey: null })?.id).toBe("b");
    expect(
      index.find({ email: null, crmId: null, matchKey: contactKeys(person({ firstName: "ADA" })).matchKey })?.id,
    ).toBe("c");
    expect(index.find({ email: "someone@else.com", crmId: "crm-8", matchKey: null })).toBeNull();
  });

  it("email wins over CRM id when they point at different people", () => {
    const index = new MatchIndex([
      { id: "by-email", email: "ada@initech.com", crmId: "crm-1", matchKey: null },
      { id: "by-crm", email: null, crmId: "crm-2", matchKey: null },
    ]);
    expect(index.find({ email: "ada@initech.com", crmId: "crm-2", matchKey: null })?.id).toBe("by-email");
  });

  it("name and address do not match a record with another email or another CRM id", () => {
    const key = contactKeys(person()).matchKey;
    const index = new MatchIndex([{ id: "x", email: "ada@one.com", crmId: null, matchKey: key }]);
    expect(index.find({ email: "ada@two.com", crmId: null, matchKey: key })).toBeNull();
    expect(index.find({ email: null, crmId: null, matchKey: key })?.id).toBe("x");
    const crm = new MatchIndex([{ id: "y", email: null, crmId: "crm-1", matchKey: key }]);
    expect(crm.find({ email: null, crmId: "crm-2", matchKey: key })).toBeNull();
  });

  it("a row repeating an earlier one of the file is a duplicate, by any of its keys", () => {
    const seen = new FileDuplicates();
    expect(seen.seen({ email: "ada@x.com", crmId: "1", matchKey: null })).toBe(false);
    expect(seen.seen({ email: "ada@x.com", crmId: null, matchKey: null })).toBe(true);
    expect(seen.seen({ email: "other@x.com", crmId: "1", matchKey: null })).toBe(true);
    expect(seen.seen({ email: "third@x.com", crmId: "2", matchKey: null })).toBe(false);
  });

  it("a name without a street address is no key", () => {
    expect(contactKeys(person({ addressLine1: null }))).toEqual({ addressKey: null, matchKey: null });
    expect(contactKeys(person()).matchKey).toBe("ada lovelace|us|02116|boston|1 main st");
  });
});

describe("emails, domains and free mail", () => {
  it("keeps an email lower-cased and refuses what is not one", () => {
    expect(normaliseEmail(" Jane.Doe+tag@Acme.CO.UK ")).toBe("jane.doe+tag@acme.co.uk");
    for (const bad of ["jane", "jane@", "@acme.com", "jane at acme.com", "jane@acme", "a b@c.com"])
      expect(normaliseEmail(bad)).toBeNull();
  });
  it("reads a web domain from a website column", () => {
    expect(toDomain("https://www.Acme.com/about?x=1")).toBe("acme.com");
    expect(toDomain("www2.initech.co.uk")).toBe("initech.co.uk");
    expect(toDomain("not a domain")).toBeNull();
  });
  it("knows free-mail domains", () => {
    for (const d of ["gmail.com", "outlook.com", "yahoo.co.uk", "web.de", "gmx.de"])
      expect(isFreeMailDomain(d)).toBe(true);
    expect(isFreeMailDomain("initech.com")).toBe(false);
  });
});

describe("duplicates within a file", () => {
  it("follow the same rules as the workspace's: name and address only between rows that do not disagree", () => {
    const key = contactKeys(person()).matchKey;
    const seen = new FileDuplicates();
    expect(seen.seen({ email: "ada@one.com", crmId: null, matchKey: key })).toBe(false);
    expect(seen.seen({ email: "ada@two.com", crmId: null, matchKey: key })).toBe(false);
    expect(seen.seen({ email: null, crmId: null, matchKey: key })).toBe(true);
    const crm = new FileDuplicates();
    expect(crm.seen({ email: null, crmId: "1", matchKey: key })).toBe(false);
    expect(crm.seen({ email: null, crmId: "2", matchKey: key })).toBe(false);
    expect(crm.seen({ email: "x@y.com", crmId: null, matchKey: key })).toBe(true);
  });

  it("hold across a large file: every repeat is found and no new person is taken for one", () => {
    const seen = new FileDuplicates();
    const row = (i: number) => ({
      email: i % 3 === 0 ? null : `p${i}@x.com`,
      crmId: i % 3 === 1 ? null : `crm-${i}`,
      matchKey: `p ${i}|us|02116|boston|${i} main st`,
    });
    for (let i = 0; i < 20_000; i++) expect(seen.seen(row(i))).toBe(false);
    for (let i = 0; i < 20_000; i += 7) expect(seen.seen(row(i))).toBe(true);
    // The same name and address with another email is someone else, however many rows came before.
    expect(seen.seen({ email: "other@x.com", crmId: null, matchKey: row(4).matchKey })).toBe(false);
    expect(seen.seen({ email: null, crmId: null, matchKey: row(4).matchKey })).toBe(true);
  });
});
