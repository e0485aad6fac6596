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

describe("recipientDigest", () => {
  it("is the same for the same printed recipient, whatever the custom fields' key order or what is not printed", () => {
    const d = recipientDigest(contact);
    expect(recipientDigest({ ...contact, customFields: { seats: "12", tier: "gold" } })).toBe(d);
    expect(recipientDigest({ ...contact, phone: "+1 617 555 0199", addressStatus: "unverified", updatedAt: new Date() } as typeof contact)).toBe(d);
    expect(draftRecipientState(d, contact)).toBe("current");
  });

  it("changes with the address, the name, the title, the company and the custom fields", () => {
    const d = recipientDigest(contact);
    for (const changed of [
      { addressLine1: "13 Analytical Way" },
      { addressLine2: null },
      { postalCode: "02115" },
      { city: "Cambridge" },
      { country: "CA" },
      { firstName: "Augusta" },
      { title: null },
      { account: { name: "Difference Ltd", domain: "engines.example" } },
      { account: { name: "Engines Ltd", domain: "engines2.example" } },
      { account: null },
      { customFields: { tier: "silver", seats: 12 } },
      { email: "augusta@example.test" },
    ]) {
      expect(recipientDigest({ ...contact, ...changed }), JSON.stringify(changed)).not.toBe(d);
      expect(draftRecipientState(d, { ...contact, ...changed })).toBe("changed");
    }
  });

  it("leaves a draft made before digests were kept unknown", () => {
    expect(draftRecipientState(null, contact)).toBe("unknown");
  });
});
