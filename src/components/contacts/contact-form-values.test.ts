import { describe, expect, it } from "vitest";
import {
  blankContact,
  contactPayload,
  fieldOfPointer,
  formatCustomFields,
  NEEDS_NAME_OR_EMAIL,
  parseCustomFields,
  validateContact,
} from "./contact-form-values";

describe("the contact dialog's custom fields: every line is “Name: value”, or the dialog says which is not", () => {
  it("reads names and values (a value may hold colons), skipping blank lines", () => {
    expect(parseCustomFields("Lead Source: Webinar\n\n  Booth:  B12 \nNote: call at 10:30\r\n")).toEqual({
      fields: { "Lead Source": "Webinar", Booth: "B12", Note: "call at 10:30" },
      error: null,
    });
    expect(parseCustomFields("")).toEqual({ fields: {}, error: null });
  });

  it("names the line without a colon, without a name, without a value, and a name given twice", () => {
    expect(parseCustomFields("Lead Source: Webinar\nbad line without colon").error).toBe(
      "Line 2, “bad line without colon”, has no colon: write it as “Name: value”.",
    );
    expect(parseCustomFields(": empty name").error).toBe(
      "Line 1, “: empty name”, has no name before its colon: write it as “Name: value”.",
    );
    expect(parseCustomFields("Shoe size:").error).toBe(
      "Line 1, “Shoe size:”, has no value after its colon: give one, or delete the line.",
    );
    expect(parseCustomFields("Tier: gold\nTier: silver").error).toBe(
      "Line 2 names “Tier” again (line 1 already does): keep one of them.",
    );
    const both = parseCustomFields("Lead Source: Webinar\nbad line without colon\n: empty name").error!;
    expect(both).toContain("Line 2,");
    expect(both).toContain("Line 3,");
  });

  it("says the schema's limits about the line they concern", () => {
    expect(parseCustomFields(`Note: ${"x".repeat(1001)}`).error).toBe("Line 1 (“Note”): At most 1000 characters.");
    expect(parseCustomFields(`${"n".repeat(65)}: v`).error).toMatch(/^Line 1 \(“n{40}…”\): At most 64 characters\.$/);
  });

  it("writes fields back as the lines it reads", () => {
    const text = formatCustomFields({ "Lead Source": "Webinar", Note: "call at 10:30" });
    expect(text).toBe("Lead Source: Webinar\nNote: call at 10:30");
    expect(parseCustomFields(text).fields).toEqual({ "Lead Source": "Webinar", Note: "call at 10:30" });
  });
});

describe("the contact dialog checks its values with the schema, never by cutting them", () => {
  it("a contact needs a name or an email, said on the first name", () => {
    expect(validateContact(blankContact, true)).toEqual({ firstName: NEEDS_NAME_OR_EMAIL });
    expect(validateContact({ ...blankContact, lastName: "Okafor" }, true)).toEqual({});
    expect(validateContact({ ...blankContact, email: "ada@x.example" }, true)).toEqual({});
  });

  it("an over-long value is refused in the schema's words on its own field (the browser never cuts it)", () => {
    const errors = validateContact(
      { ...blankContact, firstName: "Ada", email: `${"x".repeat(300)}@example.com`, postalCode: "1".repeat(21) },
      true,
    );
    expect(errors).toEqual({ email: "At most 254 characters.", postalCode: "At most 20 characters." });
    expect(validateContact({ ...blankContact, firstName: "Ada", company: "c".repeat(201) }, true)).toEqual({
      company: "At most 200 characters.",
    });
    // Editing: there is no company field.
    expect(validateContact({ ...blankContact, firstName: "Ada", company: "c".repeat(201) }, false)).toEqual({});
  });

  it("a malformed custom field line stops the save with the line named", () => {
    expect(
      validateContact(
        { ...blankContact, firstName: "Ada", customFields: "Lead Source: Webinar\nbad line without colon" },
        true,
      ),
    ).toEqual({
      customFields: "Line 2, “bad line without colon”, has no colon: write it as “Name: value”.",
    });
  });

  it("sends trimmed values, empty ones as none", () => {
    expect(
      contactPayload({ ...blankContact, firstName: " Ada ", email: " ada@x.example ", city: "  " }, { Tier: "gold" }),
    ).toMatchObject({ firstName: "Ada", email: "ada@x.example", city: null, customFields: { Tier: "gold" } });
  });

  it("puts a service refusal on the field its pointer names", () => {
    expect(fieldOfPointer("/email")).toBe("email");
    expect(fieldOfPointer("/fields/postalCode")).toBe("postalCode");
    expect(fieldOfPointer("/fields/customFields/Lead Source")).toBe("customFields");
    expect(fieldOfPointer("/workspaceId")).toBeNull();
    expect(fieldOfPointer(undefined)).toBeNull();
  });
});
