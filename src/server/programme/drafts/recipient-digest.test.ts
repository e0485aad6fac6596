import { describe, expect, it } from "vitest";
import { draftRecipientState, recipientDigest } from "./recipient-digest";

const contact = {
  id: "ctc_1",
  firstName: "Ada",
  lastName: "Lovelace",
  title: "CTO",
  email: "ada@example.test",
  addressLine1: "12 Analytical Way",
  addressLine2: "Floor 2",
  city: "Boston",
  region: "MA",
  postalCode: "02116",
  country: "US",
  account: { name: "Engines Ltd", domain: "engines.example" },
  customFields: { tier: "gold", seats: 12 },
  phone: "+1 617 555 0100",
  addressStatus: "deliverable",
};

/** The fields a copy such as "Hi {{firstName}}, your {{custom.tier}} plan for {{custom.seats}} seats" uses. */
const used = ["firstName", "custom.tier", "custom.seats"];

describe("recipientDigest", () => {
  it("is the same for the same printed recipient, whatever the custom fields' key order, the fields' order or what is not printed", () => {
    const d = recipientDigest(contact, used);
    expect(recipientDigest({ ...contact, customFields: { seats: "12", tier: "gold" } }, used)).toBe(d);
    expect(recipientDigest(contact, [...used].reverse())).toBe(d);
    expect(
      recipientDigest(
        { ...contact, phone: "+1 617 555 0199", addressStatus: "unverified", updatedAt: new Date() } as typeof contact,
        used,
      ),
    ).toBe(d);
    expect(draftRecipientState(d, contact)).toBe("current");
  });

  it("changes with the address, the name, the title, the company and the merge fields the copy uses", () => {
    const d = recipientDigest(contact, used);
    for (const changed of [
      { addressLine1: "13 Analytical Way" },
      { addressLine2: null },
      { postalCode: "02115" },
      { city: "Cambridge" },
      { country: "CA" },
      { firstName: "Augusta" },
      { lastName: "King" },
      { title: null },
      { account: { name: "Difference Ltd", domain: "engines.example" } },
      { account: null },
      { customFields: { tier: "silver", seats: 12 } },
      { customFields: { tier: "gold" } },
    ]) {
      expect(recipientDigest({ ...contact, ...changed }, used), JSON.stringify(changed)).not.toBe(d);
      expect(draftRecipientState(d, { ...contact, ...changed }), JSON.stringify(changed)).toBe("changed");
    }
  });

  it("stays current when only what the copy does not use changes: another custom field, the email, the account's domain", () => {
    const d = recipientDigest(contact, used);
    for (const changed of [
      { customFields: { tier: "gold", seats: 12, "Last activity": "2026-11-28" } },
      { email: "augusta@example.test" },
      { account: { name: "Engines Ltd", domain: "engines2.example" } },
    ]) {
      expect(draftRecipientState(d, { ...contact, ...changed }), JSON.stringify(changed)).toBe("current");
    }
    // The same changes matter to a copy that prints them.
    const withEmail = recipientDigest(contact, ["email", "companyDomain", "custom.Last activity"]);
    expect(draftRecipientState(withEmail, { ...contact, email: "augusta@example.test" })).toBe("changed");
    expect(
      draftRecipientState(withEmail, { ...contact, account: { name: "Engines Ltd", domain: "engines2.example" } }),
    ).toBe("changed");
    expect(
      draftRecipientState(withEmail, {
        ...contact,
        customFields: { ...contact.customFields, "Last activity": "2026-11-28" },
      }),
    ).toBe("changed");
  });

  it("reads a digest of the first kind (every merge value, kept before digests named their fields) as it was made", () => {
    // recipientDigest(contact) as the first kind computed it.
    const v1 = "NOrAFF3koZrRgk4o4PNoWZsk09dnsTLfROVc2sH8i8k";
    expect(draftRecipientState(v1, contact)).toBe("current");
    expect(draftRecipientState(v1, { ...contact, email: "augusta@example.test" })).toBe("changed");
  });

  it("leaves a draft made before digests were kept unknown, and a digest it cannot read changed", () => {
    expect(draftRecipientState(null, contact)).toBe("unknown");
    expect(draftRecipientState("2.!!!.abc", contact)).toBe("changed");
  });
});
