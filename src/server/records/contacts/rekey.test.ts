import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { audienceDuplicates, isSuppressedBy, suppressionSet } from "@/server/programme/mailability/facts";
import { canonicalPostalCode } from "@/server/records/addresses/postal-code";
import { verificationKey } from "@/server/programme/mailability/verifiers/cache";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { contactKeys } from "./keys";
import { ADDRESS_KEYS_V2, oldKeyAddress, recomputeAddressKeys } from "./rekey";
import { normaliseEntry } from "./suppressions";

/** The address key as the service wrote it before migration 20261126164550_address_keys_v2 (version 1, verbatim). */
function addressKeyV1(a: {
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  postalCode: string | null;
  country: string;
}): string {
  const squash = (s: string | null | undefined) => {
    const upper = (s ?? "").toUpperCase();
    return (/^[\x20-\x7e]*$/.test(upper) ? upper : upper.normalize("NFKD")).replace(/[^A-Z0-9]+/g, " ").trim();
  };
  const postal = a.postalCode ? canonicalPostalCode(a.country, a.postalCode) : a.postalCode;
  return [a.country, postal, a.city, a.addressLine1, a.addressLine2].map(squash).join("|");
}
const matchKeyV1 = (c: { firstName: string; lastName: string }, key: string) =>
  `${c.firstName.toUpperCase()} ${c.lastName.toUpperCase()}|${key}`;

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const at = { city: "Springfield", region: "IL", postalCode: "62701", country: "US" };

describe("address keys recomputed by the start-up step after migration address_keys_v2", () => {
  it("reads a key of the first kind back as its parts, and leaves a key of the present kind alone", () => {
    expect(oldKeyAddress("US|62701|SPRINGFIELD|77 ELM STREET|SUITE 5")).toEqual({
      country: "US",
      postalCode: "62701",
      city: "SPRINGFIELD",
      addressLine1: "77 ELM STREET",
      addressLine2: "SUITE 5",
    });
    expect(oldKeyAddress("us|62701|springfield|77 elm st ste 5")).toBeNull();
  });

  it("makes the pairs one address for duplicates and suppressions, for contacts, suppressions and cached answers stored before it", async () => {
    const { workspaceId } = await createOwnerWorkspace(prisma);
    const audience = await prisma.audience.create({ data: { workspaceId, name: "Springfield" } });
    // Stored as before the migration: keys of version 1.
    const people = [
      { firstName: "Ada", lastName: "Okafor", addressLine1: "77 Elm Street", addressLine2: null, ...at },
      {
        firstName: "Ben",
        lastName: "Cole",
        addressLine1: "77 Elm St",
        addressLine2: null,
        ...at,
        postalCode: "62701-4410",
      },
      { firstName: "Cy", lastName: "Diaz", addressLine1: "200 Main St", addressLine2: "Ste 5", ...at },
      { firstName: "Dee", lastName: "Ng", addressLine1: "9 Oak Avenue", addressLine2: "Floor 3", ...at },
    ];
    const ids: string[] = [];
    for (const p of people) {
      const key = addressKeyV1(p);
      const c = await prisma.contact.create({
        data: { workspaceId, ...p, addressKey: key, matchKey: matchKeyV1(p, key) },
      });
      await prisma.audienceMember.create({ data: { workspaceId, audienceId: audience.id, contactId: c.id } });
      ids.push(c.id);
    }
    // An opt-out entered as "200 Main Street, Suite 5"; another as "9 Oak Ave, Fl 3" and the same again in another form (two rows then).
    await prisma.suppression.create({
      data: {
        workspaceId,
        kind: "address",
        reason: "opt_out",
        label: "200 Main Street, Suite 5",
        value: addressKeyV1({ addressLine1: "200 Main Street", addressLine2: "Suite 5", ...at }),
      },
    });
    await prisma.suppression.create({
      data: {
        workspaceId,
        kind: "address",
        reason: "opt_out",
        label: "9 Oak Ave, Fl 3",
        value: addressKeyV1({ addressLine1: "9 Oak Ave", addressLine2: "Fl 3", ...at }),
      },
    });
    await prisma.suppression.create({
      data: {
        workspaceId,
        kind: "address",
        reason: "do_not_mail",
        label: "9 Oak Avenue, Floor 3",
        value: addressKeyV1({ addressLine1: "9 Oak Avenue", addressLine2: "Floor 3", ...at }),
      },
    });
    // A verifier's answer cached under the old key of the normalised address.
    await prisma.addressVerification.create({
      data: {
        workspaceId,
        verifier: "lob",
        addressKey: addressKeyV1({ addressLine1: "77 Elm Street", addressLine2: null, ...at }),
        verdict: "deliverable",
        vendorVerdict: "deliverable",
      },
    });

    const rows = () =>
      prisma.contact.findMany({
        where: { workspaceId },
        orderBy: { createdAt: "asc" },
        select: {
          id: true,
          addressKey: true,
          matchKey: true,
          firstName: true,
          lastName: true,
          addressLine1: true,
          addressLine2: true,
          city: true,
          region: true,
          postalCode: true,
          country: true,
          email: true,
          accountId: true,
          addressStatus: true,
          undeliverableReason: true,
          title: true,
          account: { select: { name: true, domain: true } },
        },
      });
    const suppressedNow = async () => {
      const set = await suppressionSet(prisma, workspaceId);
      return (await rows()).map((c) => isSuppressedBy(set, c));
    };
    // Before: by the stored keys Elm Street and Elm St are two addresses; and the suppressions' old
    // values match no key the service computes now: without the recompute every one would be lost.
    expect((await audienceDuplicates(prisma, { workspaceId, audienceId: audience.id })).size).toBe(0);
    expect(await suppressedNow()).toEqual([false, false, false, false]);

    await prisma.dataBackfill.upsert({
      where: { name: ADDRESS_KEYS_V2 },
      create: { name: ADDRESS_KEYS_V2 },
      update: { doneAt: null },
    });
    const done = await recomputeAddressKeys(prisma);
    expect(done).toMatchObject({ contacts: expect.any(Number), suppressions: expect.any(Number) });
    expect(done!.contacts).toBeGreaterThanOrEqual(4);
    expect((await prisma.dataBackfill.findUniqueOrThrow({ where: { name: ADDRESS_KEYS_V2 } })).doneAt).not.toBeNull();

    // After: every stored key is today's, the pair is one address, and the suppressions match both spellings.
    const after = await rows();
    for (const c of after) expect(contactKeys(c)).toEqual({ addressKey: c.addressKey, matchKey: c.matchKey });
    expect(after[0].addressKey).toBe(after[1].addressKey);
    expect([...(await audienceDuplicates(prisma, { workspaceId, audienceId: audience.id })).keys()].sort()).toEqual(
      [ids[0], ids[1]].sort(),
    );
    expect(await suppressedNow()).toEqual([false, false, true, true]);
    // The two Oak spellings became one suppression (the first entered is kept).
    expect(
      await prisma.suppression.findMany({
        where: { workspaceId },
        select: { label: true },
        orderBy: { createdAt: "asc" },
      }),
    ).toEqual([{ label: "200 Main Street, Suite 5" }, { label: "9 Oak Ave, Fl 3" }]);
    // The cached answer is found under the key today's cache reads for either spelling.
    const cached = await prisma.addressVerification.findFirstOrThrow({ where: { workspaceId } });
    expect(cached.addressKey).toBe(verificationKey({ addressLine1: "77 Elm St", addressLine2: null, ...at }));

    // A suppression entered after the migration matches the same way.
    const entry = normaliseEntry({
      reason: "opt-out",
      address: { addressLine1: "77 ELM ST.", city: "springfield", postalCode: "62701-4410", country: "United States" },
    });
    expect(entry).toMatchObject({ value: after[0].addressKey });

    // Run once: the start-up step finds nothing pending the next time.
    expect(await recomputeAddressKeys(prisma)).toBeNull();
  });
});
