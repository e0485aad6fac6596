import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { callerFor, createAudience, createOwnerWorkspace } from "@/test/factories";

/** The contact page says in words why the audit flagged a contact, not only that it did. */

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

describe("why a contact is flagged", () => {
  it("gives the audit's reasons in words, now and in the newest audit", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "paid" });
    const caller = await callerFor(prisma, o.user);
    const { audience, contacts } = await createAudience(prisma, o.workspaceId, { accounts: 1, perAccount: 2 });
    const flagged = contacts[0];
    await prisma.contact.update({ where: { id: flagged.id }, data: { postalCode: null, city: null } });
    const run = await caller.mailability.run({ workspaceId: o.workspaceId, audienceId: audience.id, verify: false });
    const m = await caller.mailability.contact({ workspaceId: o.workspaceId, contactId: flagged.id });
    expect(m).toMatchObject({ status: "unmailable", reasons: ["missing_city", "missing_postal_code"] });
    expect(m.why).toEqual(["no city", "no postal code"]);
    expect(m.latestAudit).toMatchObject({
      auditId: run.auditId,
      status: "unmailable",
      reasons: ["missing_city", "missing_postal_code"],
      why: ["no city", "no postal code"],
    });
    // A contact with nothing to note has no words either.
    const fine = await caller.mailability.contact({ workspaceId: o.workspaceId, contactId: contacts[1].id });
    expect([fine.why, fine.latestAudit?.why]).toEqual([[], []]);
  });
});
