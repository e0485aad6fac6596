import { describe, expect, it } from "vitest";
import { contractGate } from "./contract";
import { unitDraw } from "./holdout";
import { suppressionKeys } from "@/server/records/contacts/suppression-check";

describe("contractGate", () => {
  const approved = { status: "approved", format: "postcard" };
  it("needs the paid plan and an approved contract for the campaign's format", () => {
    expect(contractGate({ plan: "paid", format: "postcard", contract: approved })).toBe("ok");
    expect(contractGate({ plan: "audit", format: "postcard", contract: approved })).toBe("mailing_disabled");
    expect(contractGate({ plan: "paid", format: "postcard", contract: null })).toBe("no_fulfilment_contract");
    expect(contractGate({ plan: "paid", format: "postcard", contract: { ...approved, status: "proposed" } })).toBe(
      "no_fulfilment_contract",
    );
    expect(contractGate({ plan: "paid", format: "letter", contract: approved })).toBe("no_fulfilment_contract");
  });
});

describe("suppressionKeys", () => {
  it("covers the contact, its email and email domain, its account and account domain, and its address", () => {
    const keys = suppressionKeys({
      id: "ctc_1",
      email: "Ada@Initech.COM",
      accountId: "acc_1",
      accountDomain: "initech.com",
      firstName: "Ada",
      lastName: "O",
      addressLine1: "1 Main St",
      addressLine2: null,
      city: "Boston",
      region: "MA",
      postalCode: "02116",
      country: "US",
      addressStatus: "deliverable",
    });
    expect(keys).toEqual([
      { kind: "contact", value: "ctc_1" },
      { kind: "email", value: "ada@initech.com" },
      { kind: "domain", value: "initech.com" },
      { kind: "account", value: "acc_1" },
      { kind: "domain", value: "initech.com" },
      { kind: "address", value: "us|02116|boston|1 main st" },
    ]);
  });
});

describe("unitDraw", () => {
  it("is stable, in [0, 1), and spreads evenly", () => {
    expect(unitDraw("cmp_a", "acc_1")).toBe(unitDraw("cmp_a", "acc_1"));
    const draws = Array.from({ length: 4000 }, (_, i) => unitDraw("cmp_a", `acc_${i}`));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    const share = draws.filter((d) => d < 0.2).length / draws.length;
    expect(share).toBeGreaterThan(0.17);
    expect(share).toBeLessThan(0.23);
  });
});
