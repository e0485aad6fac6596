import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import type { Actor } from "@/server/ground/audit/service";
import { contactKeys } from "@/server/records/contacts/keys";
import { reviewAddress } from "@/server/records/addresses/checks";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { INTERNATIONAL, REGION_FORMS, type TFixtureAddress } from "@/test/international-addresses";
import { canonicalRegion, normalisationNotes, normaliseAddress } from "@/server/records/addresses/normalise";
import { reasonPhrases } from "./reason-words";
import { REASON_LABELS } from "./reasons";
import { getAudit, startAudit } from "./service";
import { AUDIENCE_FACTS, verdictOf } from "./verdict";

const COUNTRIES = Object.keys(INTERNATIONAL);
const contact = (a: TFixtureAddress) => ({ ...a, addressStatus: "unverified" as const });

describe("addresses of 16 countries, by their posts' own rules (Google's address metadata)", () => {
  it("covers the countries the issue names", () => {
    expect(COUNTRIES.sort()).toEqual([
      "AU",
      "BR",
      "CA",
      "CN",
      "DE",
      "ES",
      "FR",
      "GB",
      "IN",
      "IT",
      "JP",
      "KR",
      "MX",
      "NL",
      "RU",
      "US",
    ]);
  });

  it.each(COUNTRIES)(
    "%s: a correctly written address is mailable, and each real defect is found with its reason",
    (country) => {
      const { good, defects } = INTERNATIONAL[country];
      expect(verdictOf(contact(good), AUDIENCE_FACTS, { suppressed: false })).toEqual({
        status: "mailable",
        reasons: [],
      });
      expect(reviewAddress(contact(good))).toEqual([]);
      for (const d of defects) {
        const v = verdictOf(contact({ ...good, ...d.change }), AUDIENCE_FACTS, { suppressed: false });
        expect(v, `${country} ${JSON.stringify(d.change)}`).toEqual({ status: "unmailable", reasons: [d.reason] });
      }
    },
  );

  it.each(REGION_FORMS)(
    "%s: the region written %s is accepted and written as the post does: %s",
    (country, written, canonical) => {
      const good = INTERNATIONAL[country]?.good ?? INTERNATIONAL.US.good;
      const address = { ...good, country, region: written, ...(INTERNATIONAL[country] ? {} : { postalCode: null }) };
      if (INTERNATIONAL[country])
        expect(verdictOf(contact(address), AUDIENCE_FACTS, { suppressed: false }).reasons).toEqual([]);
      // The region on its own (a gift's shipping form): in the script it is written in.
      expect(canonicalRegion(country, written)).toBe(canonical);
    },
  );

  it("normalises a region into the script the address is written in, and never transliterates one written in its own", () => {
    const latin = {
      firstName: "Anna",
      lastName: "Ivanova",
      addressLine1: "ul. Tverskaya, d. 13",
      addressLine2: null,
      city: "Moskva",
      region: "Moscow",
      postalCode: "125032",
      country: "RU",
    };
    // "Moscow" inside a Cyrillic address is written as the post writes it, not as a Latin "Moskva".
    expect(normaliseAddress({ ...INTERNATIONAL.RU.good, region: "Moscow" })).toEqual({
      addressLine1: "ул. Тверская, д. 13",
      addressLine2: null,
      city: "Москва",
      region: "Москва",
      postalCode: "125032",
      country: "RU",
    });
    expect(normaliseAddress({ ...INTERNATIONAL.RU.good, region: "Москва" }).region).toBe("Москва");
    expect(normaliseAddress({ ...INTERNATIONAL.RU.good, region: "г. Москва" }).region).toBe("Москва");
    expect(normaliseAddress(latin).region).toBe("Moskva");
    expect(normaliseAddress({ ...latin, region: "Москва" }).region).toBe("Москва");
    expect(
      verdictOf(contact({ ...INTERNATIONAL.RU.good, region: "Moscow" }), AUDIENCE_FACTS, { suppressed: false }),
    ).toEqual({ status: "mailable", reasons: [] });
    // Japan: a kanji address's Tokyo or JP-13 is 東京都; a romanised address keeps Tokyo.
    expect(normaliseAddress({ ...INTERNATIONAL.JP.good, region: "Tokyo" }).region).toBe("東京都");
    expect(normaliseAddress({ ...INTERNATIONAL.JP.good, region: "JP-13" }).region).toBe("東京都");
    expect(
      normaliseAddress({
        ...INTERNATIONAL.JP.good,
        addressLine1: "1-9-1 Marunouchi",
        city: "Chiyoda-ku",
        region: "Tokyo-to",
      }).region,
    ).toBe("Tokyo");
  });

  it("the messages name what is wrong: a region Japan's post requires, a region not of the country", () => {
    expect(reviewAddress(contact({ ...INTERNATIONAL.JP.good, region: null }))).toEqual([
      "no state or province (required in JP)",
    ]);
    expect(reviewAddress(contact({ ...INTERNATIONAL.IT.good, region: "Bayern" }))).toEqual([
      "region Bayern is not a region of IT",
    ]);
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
      for (const [variant, reason] of [
        [good, null] as const,
        ...defects.map((d) => [{ ...good, ...d.change, addressLine2: `${++n}F` }, d.reason] as const),
      ]) {
        const c = await prisma.contact.create({ data: { workspaceId, ...variant, ...contactKeys(variant) } });
        await prisma.audienceMember.create({ data: { workspaceId, audienceId: audience.id, contactId: c.id } });
        expected.set(c.id, reason ? { status: "unmailable", reasons: [reason] } : { status: "mailable", reasons: [] });
      }
    }
    const run = await startAudit(prisma, { workspaceId, audienceId: audience.id, actor: owner });
    expect(run.status).toBe("succeeded");
    const report = await getAudit(prisma, { workspaceId, auditId: run.auditId });
    expect(report).toMatchObject({ contacts: 48, mailable: 16, fixable: 0, unmailable: 32 });
    const rows = await prisma.mailabilityResult.findMany({
      where: { auditId: run.auditId, workspaceId },
      select: { contactId: true, status: true, reasons: true },
    });
    expect(Object.fromEntries(rows.map((r) => [r.contactId, { status: r.status, reasons: r.reasons }]))).toEqual(
      Object.fromEntries(expected),
    );
    expect(report.byCountry).toHaveLength(16);
    for (const c of report.byCountry as { country: string; contacts: number; mailable: number }[])
      expect(c, c.country).toMatchObject({ contacts: 3, mailable: 1 });
  });
});

describe("a postal code of another region", () => {
  it.each([
    [
      "US",
      { region: "DC", postalCode: "90210" },
      "postal code 90210 does not match the state DC (it is a code of CA)",
      "state",
    ],
    [
      "JP",
      { region: "東京都", postalCode: "530-0001" },
      "postal code 530-0001 does not match the prefecture 東京都 (it is a code of 大阪府)",
      "prefecture",
    ],
    [
      "RU",
      { region: "Moscow", postalCode: "191186" },
      "postal code 191186 does not match the region Moscow (it is a code of Санкт-Петербург)",
      "region",
    ],
    [
      "IT",
      { region: "MI", postalCode: "00184" },
      "postal code 00184 does not match the province MI (it is a code of RM)",
      "province",
    ],
    [
      "CA",
      { region: "ON", postalCode: "H2Y 1C6" },
      "postal code H2Y 1C6 does not match the province ON (it is a code of QC)",
      "province",
    ],
    [
      "IN",
      { region: "Maharashtra", postalCode: "110001" },
      "postal code 110001 does not match the state Maharashtra (it is a code of Delhi)",
      "state",
    ],
  ])(
    "%s: %o is invalid_postal_code, in words that say the code does not match the region (it fits the country)",
    (country, change, words, kind) => {
      const c = contact({ ...INTERNATIONAL[country].good, ...change });
      expect(verdictOf(c, AUDIENCE_FACTS, { suppressed: false })).toEqual({
        status: "unmailable",
        reasons: ["invalid_postal_code"],
      });
      expect(reviewAddress(c)).toEqual([words]);
      // The drafts' sentence, and the note beside the normalised address in the audit's table.
      expect(reasonPhrases(c, ["invalid_postal_code"])).toEqual([words]);
      expect(normalisationNotes(c)).toEqual([`P${words.slice(1)}: correct the postal code or the ${kind}.`]);
    },
  );

  it("names the region the code is of in the address's script, and the reason's words cover a code of another region", () => {
    const osakaInTokyo = contact({
      firstName: "Taro",
      lastName: "Yamada",
      addressLine1: "1-9-1 Marunouchi",
      addressLine2: null,
      city: "Chiyoda-ku",
      region: "Tokyo",
      postalCode: "530-0001",
      country: "JP",
    });
    expect(reviewAddress(osakaInTokyo)).toEqual([
      "postal code 530-0001 does not match the prefecture Tokyo (it is a code of Osaka)",
    ]);
    expect(normalisationNotes(osakaInTokyo)).toEqual([
      "Postal code 530-0001 does not match the prefecture Tokyo (it is a code of Osaka): correct the postal code or the prefecture.",
    ]);
    // A code written with a space is first read in the country's form, and its region still named.
    expect(
      verdictOf(contact({ ...INTERNATIONAL.JP.good, postalCode: "530 0001" }), AUDIENCE_FACTS, { suppressed: false }),
    ).toEqual({ status: "unmailable", reasons: ["invalid_postal_code"] });
    expect(normalisationNotes({ ...INTERNATIONAL.JP.good, postalCode: "530 0001" })).toEqual([
      "Postal code 530-0001 does not match the prefecture 東京都 (it is a code of 大阪府): correct the postal code or the prefecture.",
    ]);
    // The Russian Post's own form of the region, in the Cyrillic address; no transliterated Moskva.
    expect(normaliseAddress({ ...INTERNATIONAL.RU.good, region: "Moscow", postalCode: "191186" }).region).toBe(
      "Москва",
    );
    // The label the audit's table, the contact page and the export show for the reason.
    expect(REASON_LABELS.invalid_postal_code).toBe(
      "Postal code does not fit the country's format, or does not match the region or state",
    );
  });
});
