import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import type { Actor } from "@/server/ground/audit/service";
import { contactKeys } from "@/server/records/contacts/keys";
import { testDatabase } from "@/test/database";
import { drain, eventRow, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";
import { contactMailability } from "./fixes";
import { getAudit, startAudit } from "./service";
import { drainJobs } from "@/test/jobs";
import { createOwnerWorkspace } from "@/test/factories";
import { cacheNameOf, cachedVerifications, storeVerifications } from "./verifiers/cache";
import { LobVerifier } from "./verifiers/lob";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const owner: Actor = { kind: "user", id: null, label: "owner@example.test" };

describe("one verdict", () => {
  it("a contact the verifier called undeliverable stays so in every later audit, on its page and at the lifecycle's address gate", async () => {
    const f = await liveCampaign(prisma, { accounts: 2, perAccount: 1 });
    const bad = await prisma.contact.update({
      where: { id: f.contacts[0].id },
      data: { addressLine1: "1 Undeliverable Way" },
    });
    await prisma.contact.update({ where: { id: bad.id }, data: contactKeys(bad) });

    const first = await startAudit(prisma, {
      workspaceId: f.workspaceId,
      audienceId: f.audience.id,
      verify: true,
      actor: owner,
    });
    await drainJobs(prisma, { workspaceId: f.workspaceId });
    const reasonsOf = async (auditId: string) =>
      await prisma.mailabilityResult.findFirstOrThrow({ where: { auditId, contactId: bad.id } });
    const verified = await reasonsOf(first.auditId);
    expect(verified.status).toBe("unmailable");

    // The next two audits do not verify: they judge with the answer already had, not without it.
    for (let i = 0; i < 2; i++) {
      const again = await startAudit(prisma, { workspaceId: f.workspaceId, audienceId: f.audience.id, actor: owner });
      await drainJobs(prisma, { workspaceId: f.workspaceId });
      expect((await getAudit(prisma, { workspaceId: f.workspaceId, auditId: again.auditId })).status).toBe("succeeded");
      expect(await reasonsOf(again.auditId)).toMatchObject({ status: verified.status, reasons: verified.reasons });
    }
    expect(await contactMailability(prisma, { workspaceId: f.workspaceId, contactId: bad.id })).toMatchObject({
      status: verified.status,
      reasons: verified.reasons,
    });

    const e = await postEvent(prisma, f, bad.id);
    await drain(prisma, testClock(), f.workspaceId);
    expect(await eventRow(prisma, e.eventId)).toMatchObject({ status: "skipped", skipReason: "address_invalid" });
  }, 120_000);

  it("verifier answers are kept per address key and verification mode: a Lob test key's answer is never a live key's", async () => {
    const o = await createOwnerWorkspace(prisma);
    const test = new LobVerifier({ apiKey: "test_0123456789", usCents: 5, intlCents: 25 });
    const live = new LobVerifier({ apiKey: "live_0123456789", usCents: 5, intlCents: 25 });
    expect([cacheNameOf(test), cacheNameOf(live)]).toEqual(["lob:test", "lob"]);
    const verification = { verdict: "undeliverable" as const, vendorVerdict: "undeliverable", standardised: null };
    await storeVerifications(prisma, {
      workspaceId: o.workspaceId,
      verifier: cacheNameOf(test),
      entries: [{ key: "1 main st boston ma 02116 us", verification, costCents: 0 }],
    });
    const keys = ["1 main st boston ma 02116 us"];
    expect(
      (await cachedVerifications(prisma, { workspaceId: o.workspaceId, verifier: cacheNameOf(test), keys })).get(
        keys[0],
      ),
    ).toMatchObject({ verdict: "undeliverable" });
    expect(
      (await cachedVerifications(prisma, { workspaceId: o.workspaceId, verifier: cacheNameOf(live), keys })).size,
    ).toBe(0);
  });
});
