import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { callerFor, createAudience, createOwnerWorkspace } from "@/test/factories";

/** The problems table puts the contacts the audit flagged first and pages through all of them. */

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

describe("the flagged contacts of an audit", () => {
  it("come before twenty-odd informational rows, and the pages hold every row once", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "paid" });
    const caller = await callerFor(prisma, o.user);
    const { audience, contacts } = await createAudience(prisma, o.workspaceId, { accounts: 1, perAccount: 24 });
    // Everybody at one office (duplicate_address only informs), and the last two with no postal code.
    // (The address key is what the audit compares; a bulk update by hand sets it as the contact writer would.)
    await prisma.contact.updateMany({
      where: { workspaceId: o.workspaceId },
      data: { addressLine2: null, addressKey: "100 main st|boston|ma|02116|us" },
    });
    const flagged = [...contacts].sort((a, b) => (a.id < b.id ? 1 : -1)).slice(0, 2);
    await prisma.contact.updateMany({ where: { id: { in: flagged.map((c) => c.id) } }, data: { postalCode: null } });
    const { auditId } = await caller.mailability.run({
      workspaceId: o.workspaceId,
      audienceId: audience.id,
      verify: false,
    });
    const seen: { contactId: string; status: string }[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const r: Awaited<ReturnType<typeof caller.mailability.problems>> = await caller.mailability.problems({
        workspaceId: o.workspaceId,
        auditId,
        cursor,
        take: 10,
      });
      seen.push(...r.items.map((i) => ({ contactId: i.contactId, status: i.status })));
      cursor = r.nextCursor;
      if (!cursor) break;
    }
    expect(seen.slice(0, 2).map((s) => s.status)).toEqual(["unmailable", "unmailable"]);
    expect(new Set(seen.slice(0, 2).map((s) => s.contactId))).toEqual(new Set(flagged.map((c) => c.id)));
    expect(seen).toHaveLength(24);
    expect(new Set(seen.map((s) => s.contactId)).size).toBe(24);
    expect(seen.slice(2).every((s) => s.status === "mailable")).toBe(true);
  });
});
