import { describe, expect, it } from "vitest";
import type { TContactInput } from "@/server/records/contacts/write-model";
import { stageText, stageTextByValues } from "./stage-rows";

const contact = (over: Partial<TContactInput>): TContactInput => ({
  firstName: "Ada",
  lastName: "Okafor",
  title: null,
  email: "ada@example.com",
  phone: null,
  addressLine1: "1 Main St",
  addressLine2: null,
  city: "Boston",
  region: "MA",
  postalCode: "02116",
  country: "US",
  crmId: null,
  customFields: {},
  company: null,
  website: null,
  ...over,
});

describe("a batch's rows in COPY's text format", () => {
  it("is the same text as the general COPY path gives, whatever the values hold", () => {
    const rows = [
      contact({ keys: { addressKey: "1 main st|boston|ma|02116|us", matchKey: "ada okafor|1 main st" } }),
      contact({
        firstName: "",
        lastName: "Tab\there",
        title: "back\\slash",
        email: null,
        addressLine2: "line\nbreak",
        city: "cr\rlf",
        customFields: { Notes: 'said "hi"\tand\\left', Empty: "" },
      }),
      contact({
        firstName: "\\N",
        lastName: "",
        phone: "+1 555",
        crmId: "crm-1",
        customFields: { "Lead\\Source": "Trade show" },
        keys: { addressKey: null, matchKey: null },
      }),
      contact({
        addressLine1: null,
        city: null,
        region: null,
        postalCode: null,
        country: null,
        customFields: { Ünïcode: "日本語 \u2028 line" },
      }),
    ];
    const batch = { rows, rowNumbers: [2, 3, 5, 9] };
    expect(stageText("imp_1", batch)).toBe(stageTextByValues("imp_1", batch));
    expect(stageText("imp_1", { rows: [], rowNumbers: [] })).toBe("");
  });
});
