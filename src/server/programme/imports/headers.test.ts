import { describe, expect, it } from "vitest";
import { EXPORT_HEADER, fieldForHeader, mappingProblems, suggestMapping } from "@/server/records/contacts/csv-headers";

describe("header mapping", () => {
  it.each([
    ["First Name", "firstName"],
    ["given_name", "firstName"],
    ["FIRSTNAME", "firstName"],
    ["Vorname", "firstName"],
    ["Prénom", "firstName"],
    ["Last name", "lastName"],
    ["family_name", "lastName"],
    ["Surname", "lastName"],
    ["Name", "fullName"],
    ["Full Name", "fullName"],
    ["Email Address", "email"],
    ["E-mail", "email"],
    ["Work Email", "email"],
    ["Contact Email", "email"],
    ["Job Title", "title"],
    ["Mobile Phone", "phone"],
    ["Company Name", "company"],
    ["Account Name", "company"],
    ["Organisation", "company"],
    ["Company", "company"],
    ["Website", "website"],
    ["Company Domain", "website"],
    ["Mailing Street", "addressLine1"],
    ["Street Address", "addressLine1"],
    ["Address Line 2", "addressLine2"],
    ["Mailing City", "city"],
    ["State/Province", "region"],
    ["State", "region"],
    ["Zip/Postal Code", "postalCode"],
    ["Postcode", "postalCode"],
    ["ZIP", "postalCode"],
    ["PLZ", "postalCode"],
    ["Country", "country"],
    ["Country/Region", "country"],
    ["Mailing Country", "country"],
    ["Record ID", "crmId"],
    ["HubSpot ID", "crmId"],
    // Second address lines as HubSpot, Salesforce, Pipedrive and Apollo exports write them.
    ["Street Address 2", "addressLine2"],
    ["Address 2", "addressLine2"],
    ["Address Line 2", "addressLine2"],
    ["Mailing Street 2", "addressLine2"],
    ["Street 2", "addressLine2"],
    ["Street2", "addressLine2"],
    ["Person - Postal address - Apartment/suite no", "addressLine2"],
    ["Apt/Suite", "addressLine2"],
    // The other common export headers of those CRMs.
    ["Mobile Phone Number", "phone"],
    ["State/Region", "region"],
    ["Website URL", "website"],
    ["Mailing State/Province", "region"],
    ["Mailing Zip/Postal Code", "postalCode"],
    ["MailingPostalCode", "postalCode"],
    ["MailingStreet", "addressLine1"],
    ["FirstName", "firstName"],
    ["Person - Name", "fullName"],
    ["Person - Email - Work", "email"],
    ["Person - Phone - Mobile", "phone"],
    ["Person - Organization", "company"],
    ["Organization - Name", "company"],
    ["Person - Postal address - City/town/village/locality", "city"],
    ["Person - Postal address - State/county", "region"],
    ["Person - Postal address - ZIP/Postal code", "postalCode"],
    ["Person - Postal address - Country", "country"],
    ["First Phone", "phone"],
    ["Work Direct Phone", "phone"],
    ["Apollo Contact Id", "crmId"],
    ["Record ID - Contact", "crmId"],
    ["Associated Company", "company"],
    ["Company Domain Name", "website"],
    ["HomePhone", "phone"],
  ])("%s -> %s", (header, field) => {
    expect(fieldForHeader(header)).toBe(field);
  });

  it("leaves headers it does not know unmapped", () => {
    for (const h of [
      "Notes",
      "Shoe size",
      "Lead score",
      "",
      "   ",
      "E-mail addr",
      "Lead Source",
      "Lead Status",
      "Contact Owner",
      "Person Linkedin Url",
      "Email Status",
      "Person - Postal address",
      "Address Home",
    ])
      expect(fieldForHeader(h)).toBeNull();
  });

  it("proposes each field once, the first column winning, and a full name only without first and last names; every other column is kept as a custom field", () => {
    expect(suggestMapping(["Email", "Work Email", "Name", "First Name", "Last Name", "Notes"])).toEqual([
      "email",
      "custom:Work Email",
      "custom:Name",
      "firstName",
      "lastName",
      "custom:Notes",
    ]);
    expect(suggestMapping(["Name", "Email"])).toEqual(["fullName", "email"]);
  });

  it("a column that names a CRM fills the CRM id before a generic id column, as in this service's own contacts export", () => {
    expect(suggestMapping(["Contact ID", "First Name", "Email", "CRM ID"])).toEqual([
      "custom:Contact ID",
      "firstName",
      "email",
      "crmId",
    ]);
    expect(suggestMapping(["ID", "HubSpot ID", "Email"])).toEqual(["custom:ID", "crmId", "email"]);
    // Alone, a Salesforce export's "Contact ID" is the CRM's id.
    expect(suggestMapping(["Contact ID", "First Name", "Email"])).toEqual(["crmId", "firstName", "email"]);
  });

  it("keeps unknown columns under their own header, made unique, and a header naming a field another column fills as a custom field", () => {
    expect(
      suggestMapping(["Email", "Lead Source", "Street Address 2", "Notes", "notes", "Notes", "E-mail", "City", "Town"]),
    ).toEqual([
      "email",
      "custom:Lead Source",
      "addressLine2",
      "custom:Notes",
      "custom:notes",
      "custom:Notes (2)",
      "custom:E-mail",
      "city",
      "custom:Town",
    ]);
    // A header longer than a custom field's name is cut, and made unique after the cut.
    const long = "x".repeat(80);
    expect(suggestMapping(["Email", long, `${long}y`])).toEqual([
      "email",
      `custom:${"x".repeat(64)}`,
      `custom:${"x".repeat(60)} (2)`,
    ]);
    // This service's own export: its first column (the contact's id here) is not kept, its extra columns are custom fields.
    expect(suggestMapping([...EXPORT_HEADER, "Shoe"]).slice(0, 2)).toEqual(["ignore", "firstName"]);
    expect(suggestMapping([...EXPORT_HEADER, "Shoe"]).at(-1)).toBe("custom:Shoe");
  });

  it("a mapping keeps at most 200 columns as custom fields", () => {
    const headers = ["Email", ...Array.from({ length: 201 }, (_, i) => `Extra ${i + 1}`)];
    expect(mappingProblems(suggestMapping(headers), headers)).toEqual([
      '201 columns are kept as custom fields; an import keeps at most 200. Set the columns you do not need to "ignore".',
    ]);
    expect(mappingProblems(suggestMapping(headers.slice(0, 201)), headers.slice(0, 201))).toEqual([]);
  });

  it("says what is wrong with a mapping: a field twice, no name and no email, full and split names together", () => {
    expect(mappingProblems(["firstName", "email"], ["First", "Email"])).toEqual([]);
    expect(mappingProblems(["city", "city", "email"], ["Town", "City", "Email"])).toEqual([
      "Columns “Town” and “City” both fill city; choose one.",
    ]);
    expect(mappingProblems(["custom:Size", "custom:Size", "email"], ["A", "B", "E"])).toEqual([
      "Columns “A” and “B” both fill the custom field Size; choose one.",
    ]);
    expect(mappingProblems(["custom:Size ", "custom: Size", "email"], ["A", "B", "E"])).toEqual([
      "Columns “A” and “B” both fill the custom field Size; choose one.",
    ]);
    expect(mappingProblems(["company", "ignore"], ["Company", "X"])).toEqual([
      "Map at least one column to the email or to a name: a contact needs one of them.",
    ]);
    expect(mappingProblems(["fullName", "firstName"], ["Name", "First"])).toEqual([
      "Map either a full name or first and last names, not both.",
    ]);
  });
});
