import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import type { Actor } from "@/server/audit/service";
import { contactKeys } from "@/server/contacts/keys";
import { reviewAddress } from "@/server/addresses/checks";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { INTERNATIONAL, REGION_FORMS, type TFixtureAddress } from "@/test/international-addresses";
import { normaliseAddress } from "@/server/addresses/normalise";
import { getAudit, startAudit } from "./service";
import { AUDIENCE_FACTS, verdictOf } from "./verdict";

const COUNTRIES = Object.keys(INTERNATIONAL);
const contact = (a: TFixtureAddress) => ({ ...a, addressStatus: "unverified" as const });

describe("addresses of 16 countries, by their posts' own rules (Google's address metadata)", () => {
  it("covers the countries the issue names", () => {
    expect(COUNTRIES.sort()).toEqual(["AU", "BR", "CA", "CN", "DE", "ES", "FR", "GB", "IN", "IT", "JP", "KR", "MX", "NL", "RU", "US"]);
  });

  it.each(COUNTRIES)("%s: a correctly written address is mailable, and each real defect is found with its reason", (country) => {
    const { good, defects } = INTERNATIONAL[country];
    expect(verdictOf(contact(good), AUDIENCE_FACTS, { suppressed: false })).toEqual({ status: "mailable", reasons: [] });
    expect(reviewAddress(contact(good))).toEqual([]);
    for (const d of defects) {
      const v = verdictOf(contact({ ...good, ...d.change }), AUDIENCE_FACTS, { suppressed: false });
      expect(v, `${country} ${JSON.stringify(d.change)}`).toEqual({ status: "unmailable", reasons: [d.reason] });
    }
  });

  it.each(REGION_FORMS)("%s: the region written %s is accepted and written as the post does: %s", (country, written, canonical) => {
    const good = INTERNATIONAL[country]?.good ?? INTERNATIONAL.US.good;
    const address = { ...good, country, region: written, ...(INTERNATIONAL[country] ? {} : { postalCode: null }) };
    if (INTERNATIONAL[country]) expect(verdictOf(contact(address), AUDIENCE_FACTS, { suppressed: false }).reasons).toEqual([]);
    expect(normaliseAddress(address).region).toBe(canonical);
  });

  it("the messages name what is wrong: a region Japan's post requires, a region not of the country", () => {
    expect(reviewAddress(contact({ ...INTERNATIONAL.JP.good, region: null }))).toEqual(["no state or province (required in JP)"]);
    expect(reviewAddress(contact({ ...INTERNATIONAL.IT.good, region: "Bayern" }))).toEqual(["region Bayern is not a region of IT"]);
    // Where the post prints no region, whatever is written there is left alone.
    expect(reviewAddress(contact({ ...INTERNATIONAL.DE.good, region: "Narnia" }))).toEqual([]);
  });
});

describe("an audit of an audience across 16 countries (database)", () => {
  let prisma: PrismaClient;
  beforeAll(async () => {
    prisma = (await testDatabase()).prisma;
  });
  const owner: Actor = { kind: "user", id: null, label: "owner@example.test" };

  it("finds every correctly written address mailable and every defect unmailable, with the closed reason", async () => {
    const { workspaceId } = await createOwnerWorkspace(prisma);
    const audience = await prisma.audience.create({ data: { workspaceId, name: "International" } });
    const expected = new Map<string, { status: string; reasons: string[] }>();
    let n = 0;
    for (const country of COUNTRIES) {
      const { good, defects } = INTERNATIONAL[country];
      // Each defect on another floor of the building: another address, so no duplicate_address.
      for (const [variant, reason] of [[good, null] as const, ...defects.map((d) => [{ ...good, ...d.change, addressLine2: `${++n}F` }, d.reason] as const)]) {
        const c = await prisma.contact.create({ data: { workspaceId, ...variant, ...contactKeys(variant) } });
        await prisma.audienceMember.create({ data: { workspaceId, audienceId: audience.id, contactId: c.id } });
        expected.set(c.id, reason ? { status: "unmailable", reasons: [reason] } : { status: "mailable", reasons: [] });
      }
    }
    const run = await startAudit(prisma, { workspaceId, audienceId: audience.id, actor: owner });
    expect(run.status).toBe("succeeded");
    const report = await getAudit(prisma, { workspaceId, auditId: run.auditId });
    expect(report).toMatchObject({ contacts: 48, mailable: 16, fixable: 0, unmailable: 32 });
    const rows = await prisma.mailabilityResult.findMany({ where: { auditId: run.auditId, workspaceId }, select: { contactId: true, status: true, reasons: true } });
    expect(Object.fromEntries(rows.map((r) => [r.contactId, { status: r.status, reasons: r.reasons }]))).toEqual(Object.fromEntries(expected));
    expect(report.byCountry).toHaveLength(16);
    for (const c of report.byCountry as { country: string; contacts: number; mailable: number }[]) expect(c, c.country).toMatchObject({ contacts: 3, mailable: 1 });
  });
});

describe("a postal code of another region", () => {
  it.each([
    ["US", { region: "DC", postalCode: "90210" }],
    ["JP", { region: "東京都", postalCode: "530-0001" }],
    ["IT", { region: "MI", postalCode: "00184" }],
    ["CA", { region: "ON", postalCode: "H2Y 1C6" }],
    ["IN", { region: "Maharashtra", postalCode: "110001" }],
  ])("%s: %o is invalid_postal_code (the code fits the country, not the region)", (country, change) => {
    const v = verdictOf(contact({ ...INTERNATIONAL[country].good, ...change }), AUDIENCE_FACTS, { suppressed: false });
    expect(v).toEqual({ status: "unmailable", reasons: ["invalid_postal_code"] });
    expect(reviewAddress(contact({ ...INTERNATIONAL[country].good, ...change }))).toEqual([`postal code ${change.postalCode} is not one of ${change.region}`]);
  });
});
