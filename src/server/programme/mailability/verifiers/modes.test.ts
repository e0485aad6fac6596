import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import type { Actor } from "@/server/ground/audit/service";
import { testDatabase } from "@/test/database";
import { drainJobs } from "@/test/jobs";
import { type FakeLob, startFakeLob } from "@/test/fake-lob";
import { liveCampaign } from "@/test/lifecycle-fixtures";
import { contactMailability } from "../fixes";
import { auditEstimate, getAudit, startAudit } from "../service";
import { LobVerifier } from "./lob";
import { setAddressVerifierForTests } from "./registry";
import { SandboxVerifier } from "./sandbox";
import { VerifierError } from "./types";

let prisma: PrismaClient;
let testLob: FakeLob;
let liveLob: FakeLob;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
  testLob = await startFakeLob();
  testLob.emptyTestAnswers(true);
  liveLob = await startFakeLob("live_0123456789abcdef");
});
afterAll(async () => {
  setAddressVerifierForTests(null);
  await testLob.close();
  await liveLob.close();
});

const owner: Actor = { kind: "user", id: null, label: "owner@example.test" };
const us = {
  addressLine1: "185 Berry St",
  addressLine2: "Ste 6100",
  city: "San Francisco",
  region: "CA",
  postalCode: "94107",
  country: "US",
};
const de = {
  addressLine1: "Friedrichstraße 68",
  addressLine2: null,
  city: "Berlin",
  region: null,
  postalCode: "10117",
  country: "DE",
};
const testKey = () => new LobVerifier({ apiKey: testLob.apiKey, baseUrl: testLob.url, usCents: 5, intlCents: 25 });
const liveKey = () =>
  new LobVerifier({ apiKey: "live_0123456789abcdef", baseUrl: liveLob.url, usCents: 5, intlCents: 25 });

describe("verification modes", () => {
  it("a Lob test key's empty answer is not verified (test mode), never undeliverable; its test addresses still answer", async () => {
    const v = testKey();
    expect(v.mode).toBe("test");
    expect(await v.verify(us)).toEqual({ verdict: "not_verified", vendorVerdict: "test_mode", standardised: us });
    expect(await v.verify(de)).toMatchObject({ verdict: "not_verified", vendorVerdict: "test_mode" });
    expect(await v.verify({ ...us, addressLine1: "1 Undeliverable Way" })).toMatchObject({ verdict: "undeliverable" });
  });

  it("a live key's empty answer is an error Lob must explain, not a verdict", async () => {
    liveLob.emptyTestAnswers(true);
    try {
      const error = await liveKey()
        .verify(us)
        .catch((e: VerifierError) => e);
      expect(error).toBeInstanceOf(VerifierError);
      expect((error as VerifierError).message).toBe("Lob answered an unknown deliverability “”.");
    } finally {
      liveLob.emptyTestAnswers(false);
    }
    expect(await liveKey().verify(us)).toMatchObject({ verdict: "deliverable" });
    expect(liveKey().mode).toBe("live");
  });

  it("the sandbox says it verified nothing about a real address", async () => {
    const sandbox = new SandboxVerifier();
    expect(sandbox.mode).toBe("sandbox");
    expect(await sandbox.verify(us)).toMatchObject({ verdict: "not_verified" });
  });

  it("an audit with the sandbox reports its addresses as not verified, none undeliverable, and the contact page says so", async () => {
    const f = await liveCampaign(prisma, { accounts: 2, perAccount: 2 });
    setAddressVerifierForTests(new SandboxVerifier());
    try {
      const run = await startAudit(prisma, {
        workspaceId: f.workspaceId,
        audienceId: f.audience.id,
        verify: true,
        actor: owner,
      });
      await drainJobs(prisma, { workspaceId: f.workspaceId });
      const report = await getAudit(prisma, { workspaceId: f.workspaceId, auditId: run.auditId });
      expect(report).toMatchObject({
        status: "succeeded",
        contacts: 4,
        mailable: 4,
        unmailable: 0,
        reasons: {},
        verification: { verifier: "sandbox", mode: "sandbox", made: 4, notVerified: 4 },
      });
      const page = await contactMailability(prisma, { workspaceId: f.workspaceId, contactId: f.contacts[0].id });
      expect(page.verification).toEqual({
        verdict: "not_verified",
        vendorVerdict: "not_verified",
        verifier: "sandbox",
        mode: "sandbox",
      });
    } finally {
      setAddressVerifierForTests(null);
    }
  });

  it("cached answers keep test and live apart: a live key verifies what a test key answered, and both are counted truthfully", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 3 });
    setAddressVerifierForTests(testKey());
    try {
      const first = await startAudit(prisma, {
        workspaceId: f.workspaceId,
        audienceId: f.audience.id,
        verify: true,
        actor: owner,
      });
      await drainJobs(prisma, { workspaceId: f.workspaceId });
      expect(await getAudit(prisma, { workspaceId: f.workspaceId, auditId: first.auditId })).toMatchObject({
        status: "succeeded",
        mailable: 3,
        reasons: {},
        verification: { verifier: "lob", mode: "test", made: 3, notVerified: 3 },
      });
      expect(
        await prisma.addressVerification.findMany({
          where: { workspaceId: f.workspaceId },
          select: { verifier: true, verdict: true },
        }),
      ).toEqual([
        { verifier: "lob:test", verdict: "not_verified" },
        { verifier: "lob:test", verdict: "not_verified" },
        { verifier: "lob:test", verdict: "not_verified" },
      ]);

      setAddressVerifierForTests(liveKey());
      expect(await auditEstimate(prisma, { workspaceId: f.workspaceId, audienceId: f.audience.id })).toMatchObject({
        cachedAddresses: 0,
        addressesToVerify: 3,
        verifier: { mode: "live" },
      });
      const before = liveLob.requests.length;
      const second = await startAudit(prisma, {
        workspaceId: f.workspaceId,
        audienceId: f.audience.id,
        verify: true,
        actor: owner,
      });
      await drainJobs(prisma, { workspaceId: f.workspaceId });
      expect(liveLob.requests.length - before).toBe(3);
      expect(await getAudit(prisma, { workspaceId: f.workspaceId, auditId: second.auditId })).toMatchObject({
        verification: { mode: "live", made: 3, cached: 0, notVerified: 0 },
      });
      const page = await contactMailability(prisma, { workspaceId: f.workspaceId, contactId: f.contacts[0].id });
      expect(page.verification).toMatchObject({ verdict: "deliverable", verifier: "lob", mode: "live" });
    } finally {
      setAddressVerifierForTests(null);
    }
  });
});
