import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { callerFor, createOwnerWorkspace } from "@/test/factories";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

describe("a contact's page", () => {
  it("writes the address as its country's post does: city, state and ZIP in the US, postal code first in Germany", async () => {
    const o = await createOwnerWorkspace(prisma);
    const owner = await callerFor(prisma, o.user);
    const us = await owner.contact.create({
      workspaceId: o.workspaceId,
      fields: {
        firstName: "Bo",
        lastName: "Reed",
        addressLine1: "2 Main St",
        addressLine2: "Suite 4",
        city: "Oakland",
        region: "CA",
        postalCode: "94607",
        country: "US",
      },
    });
    const de = await owner.contact.create({
      workspaceId: o.workspaceId,
      fields: {
        firstName: "Lena",
        lastName: "Vogel",
        addressLine1: "Friedrichstraße 68",
        city: "Berlin",
        postalCode: "10117",
        country: "DE",
      },
    });
    expect((await owner.contact.get({ workspaceId: o.workspaceId, contactId: us.id })).addressLines).toEqual([
      "2 Main St",
      "Suite 4",
      "Oakland, CA 94607",
      "US",
    ]);
    expect((await owner.contact.get({ workspaceId: o.workspaceId, contactId: de.id })).addressLines).toEqual([
      "Friedrichstraße 68",
      "10117 Berlin",
      "GERMANY",
    ]);
  });
});
