import { describe, expect, it } from "vitest";
import { fieldForHeader, mappingProblems, suggestMapping } from "./headers";

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
  ])("%s -> %s", (header, field) => {
    expect(fieldForHeader(header)).toBe(field);
  });

  it("leaves headers it does not know unmapped", () => {
    for (const h of ["Notes", "Shoe size", "Lead score", "", "   ", "E-mail addr"]) expect(fieldForHeader(h)).toBeNull();
  });

  it("proposes each field once, the first column winning, and a full name only without first and last names", () => {
    expect(suggestMapping(["Email", "Work Email", "Name", "First Name", "Last Name", "Notes"])).toEqual(["email", "ignore", "ignore", "firstName", "lastName", "ignore"]);
    expect(suggestMapping(["Name", "Email"])).toEqual(["fullName", "email"]);
  });

  it("a column that names a CRM fills the CRM id before a generic id column, as in this service's own contacts export", () => {
    expect(suggestMapping(["Contact ID", "First Name", "Email", "CRM ID"])).toEqual(["ignore", "firstName", "email", "crmId"]);
    expect(suggestMapping(["ID", "HubSpot ID", "Email"])).toEqual(["ignore", "crmId", "email"]);
    // Alone, a Salesforce export's "Contact ID" is the CRM's id.
    expect(suggestMapping(["Contact ID", "First Name", "Email"])).toEqual(["crmId", "firstName", "email"]);
  });

  it("says what is wrong with a mapping: a field twice, no name and no email, full and split names together", () => {
    expect(mappingProblems(["firstName", "email"], ["First", "Email"])).toEqual([]);
    expect(mappingProblems(["city", "city", "email"], ["Town", "City", "Email"])).toEqual(["Columns “Town” and “City” both fill city; choose one."]);
    expect(mappingProblems(["custom:Size", "custom:Size", "email"], ["A", "B", "E"])).toEqual(["Columns “A” and “B” both fill the custom field Size; choose one."]);
    expect(mappingProblems(["company", "ignore"], ["Company", "X"])).toEqual(["Map at least one column to the email or to a name: a contact needs one of them."]);
    expect(mappingProblems(["fullName", "firstName"], ["Name", "First"])).toEqual(["Map either a full name or first and last names, not both."]);
  });
});
