import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Prisma, PrismaClient } from "@/generated/prisma/client";
import type { Actor } from "@/server/ground/audit/service";
import { contactKeys } from "@/server/records/contacts/keys";
import { getEntryEventDetail } from "@/server/programme/entry/event-detail";
import type { AppError } from "@/server/ground/errors";
import { testDatabase } from "@/test/database";
import { type FakeLob, startFakeLob } from "@/test/fake-lob";
import { createOwnerWorkspace } from "@/test/factories";
import { drainJobs } from "@/test/jobs";
import { claimJobs, runJob } from "@/server/records/jobs/runner";
import { drain, eventRow, type LiveCampaign, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";
import { auditProblemsCsv } from "./export";
import { applyFix, applyFixes, contactMailability } from "./fixes";
import { setAuditBatchForTests } from "./job";
import { blockingReasons } from "./verdict";
import { auditEstimate, auditProblems, getAudit, latestAudit, listAudits, resumeAudit, startAudit } from "./service";
import { LobVerifier } from "./verifiers/lob";
import { setAddressVerifierForTests } from "./verifiers/registry";

let prisma: PrismaClient;
let lob: FakeLob;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
  lob = await startFakeLob();
});
afterAll(async () => {
  setAddressVerifierForTests(null);
  setAuditBatchForTests(null);
  await lob.close();
});

const owner: Actor = { kind: "user", id: null, label: "owner@example.test" };
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: AppError) => ({ code: e.code, message: e.message }),
  );

/** Changes a contact as the product's writes do: its derived keys follow its name and address. */
async function edit(f: { contacts: { id: string }[] }, i: number, data: Prisma.ContactUpdateInput) {
  const c = await prisma.contact.update({ where: { id: f.contacts[i].id }, data });
  return prisma.contact.update({ where: { id: c.id }, data: contactKeys(c) });
}

describe("mailability audits", () => {
  it("prices the mailable contacts as the lifecycle charges them: each at its country's price on the cheapest printer covering it", async () => {
    const f = await liveCampaign(prisma, { accounts: 3, perAccount: 1 });
    await edit(f, 2, {
      addressLine1: "Friedrichstraße 68",
      addressLine2: null,
      city: "Berlin",
      region: null,
      postalCode: "10117",
      country: "DE",
    });
    await prisma.fulfilmentContract.update({
      where: { id: f.campaign.fulfilmentContractId! },
      data: { countryPrices: { US: 104 } },
    });
    await prisma.fulfilmentContract.create({
      data: {
        workspaceId: f.workspaceId,
        name: "EU postcards",
        format: "postcard",
        unitCostCents: 180,
        countryPrices: { DE: 150, FR: 180 },
        countries: ["DE", "FR"],
        status: "approved",
        approvedAt: new Date(),
      },
    });
    const audit = await startAudit(prisma, { workspaceId: f.workspaceId, audienceId: f.audience.id, actor: owner });
    // Two in the US at 104 (not the contract's 120), one in Germany at 150 (not 180): from 104 a piece.
    expect((await getAudit(prisma, { workspaceId: f.workspaceId, auditId: audit.auditId })).costs).toEqual([
      { format: "postcard", contacts: 3, uncovered: 0, unitCostCents: 104, totalCents: 358 },
    ]);
  });

  it("counts an audience by status, reason, country and account, keeps each run, and a fix accepted shows in the next run", async () => {
    const f = await liveCampaign(prisma, { accounts: 3, perAccount: 2 });
    // a: a ZIP code cut to four digits (fixable); b: no city; c and d: the same person at one address; e: suppressed by email; f: in Germany, written "de".
    await edit(f, 0, { postalCode: "2116" });
    await edit(f, 1, { city: null });
    await edit(f, 3, {
      firstName: f.contacts[2].firstName,
      lastName: f.contacts[2].lastName,
      addressLine1: f.contacts[2].addressLine1,
      addressLine2: f.contacts[2].addressLine2,
    });
    await prisma.suppression.create({
      data: { workspaceId: f.workspaceId, kind: "email", value: f.contacts[4].email!, reason: "opt_out" },
    });
    await edit(f, 5, {
      addressLine1: "Friedrichstraße 68",
      addressLine2: null,
      city: "Berlin",
      region: null,
      postalCode: "10117",
      country: "de",
    });
    // A second approved printer, for postcards to Germany, dearer.
    await prisma.fulfilmentContract.create({
      data: {
        workspaceId: f.workspaceId,
        name: "EU postcards",
        format: "postcard",
        unitCostCents: 180,
        countries: ["DE", "FR"],
        status: "approved",
        approvedAt: new Date(),
      },
    });

    const first = await startAudit(prisma, { workspaceId: f.workspaceId, audienceId: f.audience.id, actor: owner });
    expect(first.status).toBe("succeeded");
    const report = await getAudit(prisma, { workspaceId: f.workspaceId, auditId: first.auditId });
    expect(report).toMatchObject({
      status: "succeeded",
      progress: null,
      contacts: 6,
      mailable: 2,
      fixable: 1,
      unmailable: 3,
      accounts: 3,
      accountsWithMailableContact: 2,
      coveredCountries: ["DE", "FR", "US"],
      verification: null,
    });
    expect(report.reasons).toEqual({
      invalid_postal_code: 1,
      missing_city: 1,
      duplicate_contact: 1,
      duplicate_address: 1,
      suppressed: 1,
    });
    // Countries case-normalised; costs per format respect each contract's countries (US at 120, DE at 180).
    expect(report.byCountry).toEqual([
      { country: "US", contacts: 5, mailable: 1 },
      { country: "DE", contacts: 1, mailable: 1 },
    ]);
    expect(report.costs).toEqual([
      { format: "postcard", contacts: 2, uncovered: 0, unitCostCents: 120, totalCents: 300 },
    ]);
    expect(report.samples.find((s) => s.contactId === f.contacts[0].id)).toEqual({
      contactId: f.contacts[0].id,
      status: "fixable",
      reasons: ["invalid_postal_code"],
      suggestion: { postalCode: "02116" },
    });

    // The problems table includes informational reasons of mailable contacts.
    const shared = await auditProblems(prisma, {
      workspaceId: f.workspaceId,
      auditId: first.auditId,
      reason: "duplicate_address",
      take: 10,
    });
    expect(shared.items.map((i) => [i.contactId, i.status])).toEqual(
      [[f.contacts[2].id, "mailable"]].filter(([id]) => shared.items.some((i) => i.contactId === id)),
    );
    expect(shared.items).toHaveLength(1);
    const missingCity = await auditProblems(prisma, {
      workspaceId: f.workspaceId,
      auditId: first.auditId,
      reason: "missing_city",
      take: 10,
    });
    expect(missingCity.items.map((i) => i.contactId)).toEqual([f.contacts[1].id]);
    expect(missingCity.items[0].contact).toMatchObject({ city: null, postalCode: "02116", company: "Account 0" });
    expect(missingCity.items[0].normalisationNotes).toEqual([]);
    // The ZIP that lost its leading zero (in MA, which confirms it): its normalised form says what it guessed.
    const zip = await auditProblems(prisma, {
      workspaceId: f.workspaceId,
      auditId: first.auditId,
      reason: "invalid_postal_code",
      take: 10,
    });
    expect(
      zip.items.map((i) => [i.contactId, i.contact.postalCode, i.normalised.postalCode, i.normalisationNotes]),
    ).toEqual([
      [f.contacts[0].id, "2116", "02116", ["Postal code 2116 read as 02116 (a spreadsheet drops leading zeros)."]],
    ]);
    const german = await contactMailability(prisma, { workspaceId: f.workspaceId, contactId: f.contacts[5].id });
    expect(german.normalised).toMatchObject({ country: "DE", postalCode: "10117" });
    expect(german.latestAudit).toMatchObject({ auditId: first.auditId, status: "mailable" });

    const fixed = await applyFix(prisma, { workspaceId: f.workspaceId, contactId: f.contacts[0].id, actor: owner });
    expect(fixed).toMatchObject({
      changed: { postalCode: { from: "2116", to: "02116" } },
      mailability: { status: "mailable" },
    });
    expect(
      await prisma.auditLogEntry.findFirst({
        where: { workspaceId: f.workspaceId, action: "contact.updated", targetId: f.contacts[0].id },
      }),
    ).toMatchObject({ actorLabel: "owner@example.test", data: { fields: expect.arrayContaining(["postalCode"]) } });
    expect(
      await refusal(applyFix(prisma, { workspaceId: f.workspaceId, contactId: f.contacts[0].id, actor: owner })),
    ).toEqual({ code: "invalid_state", message: "The contact is mailable already: there is nothing to fix." });
    expect(
      await refusal(applyFix(prisma, { workspaceId: f.workspaceId, contactId: f.contacts[1].id, actor: owner })),
    ).toMatchObject({ code: "invalid_state", message: expect.stringContaining("missing_city") });

    const second = await startAudit(prisma, { workspaceId: f.workspaceId, audienceId: f.audience.id, actor: owner });
    expect(await getAudit(prisma, { workspaceId: f.workspaceId, auditId: second.auditId })).toMatchObject({
      mailable: 3,
      fixable: 0,
    });
    expect((await listAudits(prisma, { workspaceId: f.workspaceId })).audits.map((x) => x.auditId)).toEqual([
      second.auditId,
      first.auditId,
    ]);
    expect(await latestAudit(prisma, { workspaceId: f.workspaceId, audienceId: f.audience.id })).toMatchObject({
      auditId: second.auditId,
      unmailableShare: 0.5,
    });
  });

  it("accepts fixes in bulk on the server, by reason or by selection, each an audit-logged edit", async () => {
    const f = await liveCampaign(prisma, { accounts: 4, perAccount: 1 });
    await edit(f, 0, { postalCode: "2116" });
    await edit(f, 1, { postalCode: "021161234" });
    await edit(f, 2, { country: "United States" });
    await edit(f, 3, { city: null });
    const audit = await startAudit(prisma, { workspaceId: f.workspaceId, audienceId: f.audience.id, actor: owner });
    expect(await getAudit(prisma, { workspaceId: f.workspaceId, auditId: audit.auditId })).toMatchObject({
      fixable: 3,
      unmailable: 1,
    });

    // With only the audit, every fix of it is accepted (src/server/doors/mcp/agent-job.test.ts): here by reason, then by selection.
    const byReason = await applyFixes(prisma, {
      workspaceId: f.workspaceId,
      auditId: audit.auditId,
      reason: "invalid_postal_code",
      actor: owner,
    });
    expect(byReason).toMatchObject({ fixed: 2, skipped: 0, remaining: 0 });
    const bySelection = await applyFixes(prisma, {
      workspaceId: f.workspaceId,
      auditId: audit.auditId,
      contactIds: [f.contacts[2].id, f.contacts[3].id],
      actor: owner,
    });
    expect(bySelection).toMatchObject({ fixed: 1, skipped: 0 });
    expect(bySelection.changes).toEqual([
      { contactId: f.contacts[2].id, changed: { country: { from: "United States", to: "US" } } },
    ]);
    // Accepting again changes nothing: those contacts changed since the audit.
    expect(
      await applyFixes(prisma, {
        workspaceId: f.workspaceId,
        auditId: audit.auditId,
        reason: "invalid_postal_code",
        actor: owner,
      }),
    ).toMatchObject({ fixed: 0 });
    expect(await prisma.auditLogEntry.count({ where: { workspaceId: f.workspaceId, action: "contact.updated" } })).toBe(
      3,
    );
    expect(
      await prisma.auditLogEntry.count({ where: { workspaceId: f.workspaceId, action: "mailability.fixes_accepted" } }),
    ).toBe(3);
    const next = await startAudit(prisma, { workspaceId: f.workspaceId, audienceId: f.audience.id, actor: owner });
    expect(await getAudit(prisma, { workspaceId: f.workspaceId, auditId: next.auditId })).toMatchObject({
      mailable: 3,
      fixable: 0,
      unmailable: 1,
    });
  });

  it("runs as a job in batches with a checkpoint, reports progress, and resumes after a crash without writing a contact twice", async () => {
    const f = await liveCampaign(prisma, { accounts: 5, perAccount: 2 });
    setAuditBatchForTests(3);
    setAddressVerifierForTests(
      new LobVerifier({ apiKey: lob.apiKey, baseUrl: lob.url, usCents: 5, intlCents: 25, defaultRetryAfterMs: 5 }),
    );
    try {
      await edit(f, 4, { addressLine2: "missing unit" });
      const estimate = await auditEstimate(prisma, { workspaceId: f.workspaceId, audienceId: f.audience.id });
      expect(estimate).toMatchObject({
        contacts: 10,
        addresses: 10,
        cachedAddresses: 0,
        addressesToVerify: 10,
        verifier: { name: "lob", domesticCents: 5, internationalCents: 25 },
        estimateCents: 50,
      });
      // A paid verifier: never within the request.
      const started = await startAudit(prisma, {
        workspaceId: f.workspaceId,
        audienceId: f.audience.id,
        verify: true,
        actor: owner,
      });
      expect(started.status).toBe("queued");
      const queued = await getAudit(prisma, { workspaceId: f.workspaceId, auditId: started.auditId });
      expect(queued).toMatchObject({
        status: "queued",
        progress: { done: 0, total: 10, unit: "contacts" },
        verification: { verifier: "lob", estimateCents: 50 },
      });

      // The first run dies while writing its second batch: that batch and its checkpoint roll back together.
      lob.throttleNext(1);
      let batches = 0;
      const { auditRunJob } = await import("./job");
      const crashing = {
        ...auditRunJob,
        run: (run: Parameters<typeof auditRunJob.run>[0]) =>
          auditRunJob.run({
            ...run,
            checkpoint: async (tx, c, d, t) => {
              await run.checkpoint(tx, c, d, t);
              if (++batches === 2) throw new Error("worker killed");
            },
          }),
      };
      const [claimed] = await claimJobs(prisma, { limit: 1, now: new Date(), workspaceId: f.workspaceId });
      expect(
        await runJob(prisma, claimed, {
          handlers: { audit_run: crashing },
          clock: () => new Date(),
          leaseMs: 60_000,
          log: () => undefined,
        }),
      ).toBe("retry");
      expect(await prisma.mailabilityResult.count({ where: { auditId: started.auditId } })).toBe(3);
      const midway = await getAudit(prisma, { workspaceId: f.workspaceId, auditId: started.auditId });
      expect(midway).toMatchObject({ status: "running", progress: { done: 3, total: 10, unit: "contacts" } });
      const job = await prisma.job.findFirstOrThrow({
        where: { id: (await prisma.mailabilityAudit.findUniqueOrThrow({ where: { id: started.auditId } })).jobId! },
      });
      expect(job.checkpoint).toMatchObject({ done: 3 });

      await prisma.job.update({ where: { id: job.id }, data: { runAfter: new Date() } });
      expect(await drainJobs(prisma, { workspaceId: f.workspaceId })).toEqual(["succeeded"]);
      const done = await getAudit(prisma, { workspaceId: f.workspaceId, auditId: started.auditId });
      expect(done).toMatchObject({
        status: "succeeded",
        contacts: 10,
        mailable: 9,
        unmailable: 1,
        reasons: { missing_unit: 1 },
        verification: { verifier: "lob", made: 10, cached: 3, costCents: 50 },
      });
      // Each address paid for once, the 429 included.
      expect(await prisma.addressVerification.count({ where: { workspaceId: f.workspaceId } })).toBe(10);

      // A second verified run reads the cache: nothing to pay.
      expect(await auditEstimate(prisma, { workspaceId: f.workspaceId, audienceId: f.audience.id })).toMatchObject({
        cachedAddresses: 10,
        addressesToVerify: 0,
        estimateCents: 0,
      });
      const again = await startAudit(prisma, {
        workspaceId: f.workspaceId,
        audienceId: f.audience.id,
        verify: true,
        actor: owner,
      });
      await drainJobs(prisma, { workspaceId: f.workspaceId });
      expect(await getAudit(prisma, { workspaceId: f.workspaceId, auditId: again.auditId })).toMatchObject({
        status: "succeeded",
        verification: { made: 0, cached: 10, costCents: 0 },
      });
    } finally {
      setAuditBatchForTests(null);
      setAddressVerifierForTests(null);
    }
  });

  it("a refused verifier key fails the audit with a sentence, and the person resumes it once the key is right", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1 });
    setAddressVerifierForTests(new LobVerifier({ apiKey: "test_wrong", baseUrl: lob.url, usCents: 5, intlCents: 25 }));
    try {
      const started = await startAudit(prisma, {
        workspaceId: f.workspaceId,
        audienceId: f.audience.id,
        verify: true,
        actor: owner,
      });
      expect(await drainJobs(prisma, { workspaceId: f.workspaceId })).toEqual(["failed"]);
      expect(await getAudit(prisma, { workspaceId: f.workspaceId, auditId: started.auditId })).toMatchObject({
        status: "failed",
        error: "Lob refused the API key (LOB_API_KEY): check it in Lob's dashboard.",
      });
      // With the key put right, the person resumes it from its checkpoint.
      setAddressVerifierForTests(new LobVerifier({ apiKey: lob.apiKey, baseUrl: lob.url, usCents: 5, intlCents: 25 }));
      expect(await resumeAudit(prisma, { workspaceId: f.workspaceId, auditId: started.auditId, actor: owner })).toEqual(
        { auditId: started.auditId, status: "queued" },
      );
      expect(await drainJobs(prisma, { workspaceId: f.workspaceId })).toEqual(["succeeded"]);
      expect(await getAudit(prisma, { workspaceId: f.workspaceId, auditId: started.auditId })).toMatchObject({
        status: "succeeded",
        contacts: 1,
        verification: { made: 1 },
      });
      expect(
        await refusal(resumeAudit(prisma, { workspaceId: f.workspaceId, auditId: started.auditId, actor: owner })),
      ).toMatchObject({ code: "invalid_state" });
    } finally {
      setAddressVerifierForTests(null);
    }
  });

  it("exports the contacts with a reason as formula-safe CSV, optionally of one reason", async () => {
    const f = await liveCampaign(prisma, { accounts: 2, perAccount: 1 });
    await edit(f, 0, { firstName: '=HYPERLINK("http://evil.example")', city: null });
    const audit = await startAudit(prisma, { workspaceId: f.workspaceId, audienceId: f.audience.id, actor: owner });
    let csv = "";
    for await (const chunk of auditProblemsCsv(prisma, { workspaceId: f.workspaceId, auditId: audit.auditId }))
      csv += chunk;
    const lines = csv
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe(
      "Contact ID,First Name,Last Name,Email,Company,Address Line 1,Address Line 2,City,State/Province,Postal Code,Country,Status,Reasons,Reason Codes,Suggested Fix,Normalised Address",
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`${f.contacts[0].id},"'=HYPERLINK(""http://evil.example"")",Tester,`);
    expect(lines[1]).toMatch(/,unmailable,No city,missing_city,,"100 Main St, Suite 1, MA, 02116, US"$/);
    let none = "";
    for await (const chunk of auditProblemsCsv(prisma, {
      workspaceId: f.workspaceId,
      auditId: audit.auditId,
      reason: "suppressed",
    }))
      none += chunk;
    expect(none.trim().split("\r\n")).toHaveLength(1);
  });

  it("another workspace's audience, campaign, audit and contact are not found, and nothing is written", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1 });
    const other = await createOwnerWorkspace(prisma);
    const audit = await startAudit(prisma, { workspaceId: f.workspaceId, audienceId: f.audience.id, actor: owner });
    expect(
      await refusal(startAudit(prisma, { workspaceId: other.workspaceId, audienceId: f.audience.id, actor: owner })),
    ).toMatchObject({ code: "not_found" });
    expect(
      await refusal(startAudit(prisma, { workspaceId: other.workspaceId, campaignId: f.campaign.id, actor: owner })),
    ).toMatchObject({ code: "not_found" });
    expect(await refusal(getAudit(prisma, { workspaceId: other.workspaceId, auditId: audit.auditId }))).toMatchObject({
      code: "not_found",
    });
    expect(
      await refusal(applyFix(prisma, { workspaceId: other.workspaceId, contactId: f.contacts[0].id, actor: owner })),
    ).toMatchObject({ code: "not_found" });
    expect(
      await refusal(
        applyFixes(prisma, {
          workspaceId: other.workspaceId,
          auditId: audit.auditId,
          reason: "invalid_postal_code",
          actor: owner,
        }),
      ),
    ).toMatchObject({ code: "not_found" });
    expect(await prisma.mailabilityAudit.count({ where: { workspaceId: other.workspaceId } })).toBe(0);
    expect(await prisma.job.count({ where: { workspaceId: other.workspaceId } })).toBe(0);
  });
});

describe("the lifecycle skips a contact for the same reason the audit gives", () => {
  /** Each contact of a live campaign given one problem; the campaign's audit and its lifecycle must name the same reason. */
  async function agree(
    f: LiveCampaign,
    problems: Record<string, (i: number) => Promise<unknown>>,
    opts: { verify?: boolean; oneByOne?: boolean } = {},
  ) {
    const names = Object.keys(problems);
    for (let i = 0; i < names.length; i++) await problems[names[i]](i);
    const started = await startAudit(prisma, {
      workspaceId: f.workspaceId,
      campaignId: f.campaign.id,
      verify: opts.verify,
      actor: owner,
    });
    await drainJobs(prisma, { workspaceId: f.workspaceId });
    const audit = await getAudit(prisma, { workspaceId: f.workspaceId, auditId: started.auditId });
    expect(audit.status).toBe("succeeded");
    const results = new Map(
      (await prisma.mailabilityResult.findMany({ where: { auditId: started.auditId } })).map((r) => [r.contactId, r]),
    );

    const clock = testClock();
    const events: string[] = [];
    for (let i = 0; i < names.length; i++) {
      events.push((await postEvent(prisma, f, f.contacts[i].id, clock.now())).eventId);
      if (opts.oneByOne) {
        clock.advance(60_000);
        await drain(prisma, clock, f.workspaceId);
      }
    }
    clock.advance(60_000);
    await drain(prisma, clock, f.workspaceId);
    const seen: Record<string, { audit: string[]; skipReason: string | null; mailabilityReasons: string[] }> = {};
    for (let i = 0; i < names.length; i++) {
      const row = results.get(f.contacts[i].id)!;
      const detail = await getEntryEventDetail(prisma, {
        workspaceId: f.workspaceId,
        campaignId: f.campaign.id,
        eventId: events[i],
      });
      seen[names[i]] = {
        audit: blockingReasons(row.reasons as never, audit.format),
        skipReason: detail.skipReason,
        mailabilityReasons: detail.mailabilityReasons,
      };
    }
    return seen;
  }

  it("each reason: the campaign's audit and its lifecycle agree, with the reason recorded on the event", async () => {
    const f = await liveCampaign(prisma, { accounts: 14, perAccount: 1, campaign: { holdoutShare: 0 } });
    const set = (data: Prisma.ContactUpdateInput) => (i: number) => edit(f, i, data);
    const seen = await agree(
      f,
      {
        missing_name: set({ firstName: "", lastName: "" }),
        missing_address: set({ addressLine1: null, addressLine2: null }),
        missing_city: set({ city: null }),
        missing_postal_code: set({ postalCode: null }),
        invalid_postal_code: set({ postalCode: "ABCDE" }),
        invalid_region: set({ region: "ZZ" }),
        unknown_country: set({ country: "XX" }),
        // The campaign's printer mails to the US only.
        unsupported_country: set({
          addressLine1: "8 Rue de Londres",
          addressLine2: null,
          city: "Paris",
          region: null,
          postalCode: "75009",
          country: "FR",
        }),
        // The sandbox verifier (verify: true) answers by content.
        missing_unit: set({ addressLine2: "missing unit" }),
        undeliverable: set({ addressLine1: "1 Undeliverable Way" }),
        suppressed: (i) =>
          prisma.suppression.create({
            data: { workspaceId: f.workspaceId, kind: "contact", value: f.contacts[i].id, reason: "do_not_mail" },
          }),
        address_too_long: set({
          addressLine2: "Attn: Accounts Payable Department, Building 7 East Wing, Mail Stop 4400-B, Receiving Dock 12",
        }),
        // Fixable, but not yet fixed: the lifecycle does not mail it either.
        fixable_postal_code: set({ postalCode: "2116" }),
        mailable: async () => undefined,
      },
      { verify: true },
    );
    const expected: Record<string, { reason: string; skip: string | null }> = {
      missing_name: { reason: "missing_name", skip: "address_invalid" },
      missing_address: { reason: "missing_address", skip: "address_invalid" },
      missing_city: { reason: "missing_city", skip: "address_invalid" },
      missing_postal_code: { reason: "missing_postal_code", skip: "address_invalid" },
      invalid_postal_code: { reason: "invalid_postal_code", skip: "address_invalid" },
      invalid_region: { reason: "invalid_region", skip: "address_invalid" },
      unknown_country: { reason: "unknown_country", skip: "address_invalid" },
      unsupported_country: { reason: "unsupported_country", skip: "address_invalid" },
      missing_unit: { reason: "missing_unit", skip: "address_invalid" },
      undeliverable: { reason: "undeliverable", skip: "address_invalid" },
      suppressed: { reason: "suppressed", skip: "suppressed" },
      address_too_long: { reason: "address_too_long", skip: "address_invalid" },
      fixable_postal_code: { reason: "invalid_postal_code", skip: "address_invalid" },
    };
    for (const [name, e] of Object.entries(expected))
      expect(seen[name], name).toEqual({ audit: [e.reason], skipReason: e.skip, mailabilityReasons: [e.reason] });
    expect(seen.mailable).toEqual({ audit: [], skipReason: null, mailabilityReasons: [] });
  });

  it("a duplicate person: the audit marks the later contact, and the lifecycle mails the first to enter and skips the second", async () => {
    const f = await liveCampaign(prisma, { accounts: 2, perAccount: 1, campaign: { holdoutShare: 0 } });
    const seen = await agree(
      f,
      {
        first: async () => undefined,
        second: (i) =>
          edit(f, i, {
            firstName: f.contacts[0].firstName,
            lastName: f.contacts[0].lastName,
            addressLine1: f.contacts[0].addressLine1,
            addressLine2: f.contacts[0].addressLine2,
          }),
      },
      { oneByOne: true },
    );
    expect(seen.first).toEqual({ audit: [], skipReason: null, mailabilityReasons: [] });
    expect(seen.second).toEqual({
      audit: ["duplicate_contact"],
      skipReason: "address_duplicate",
      mailabilityReasons: ["duplicate_contact"],
    });
  });

  it("a PO box: a postcard campaign mails it (informational) and a gift campaign skips it, as each campaign's audit says", async () => {
    const postcard = await liveCampaign(prisma, { accounts: 1, perAccount: 1, campaign: { holdoutShare: 0 } });
    const box = (f: LiveCampaign) => ({
      box: (i: number) => edit(f, i, { addressLine1: "PO Box 1234", addressLine2: null }),
    });
    expect((await agree(postcard, box(postcard))).box).toEqual({ audit: [], skipReason: null, mailabilityReasons: [] });
    const gift = await liveCampaign(prisma, {
      accounts: 1,
      perAccount: 1,
      campaign: { holdoutShare: 0, format: "gift" },
    });
    await prisma.fulfilmentContract.update({ where: { id: gift.contract!.id }, data: { format: "gift" } });
    expect((await agree(gift, box(gift))).box).toEqual({
      audit: ["po_box"],
      skipReason: "address_invalid",
      mailabilityReasons: ["po_box"],
    });
    const event = await eventRow(
      prisma,
      (await prisma.entryEvent.findFirstOrThrow({ where: { campaignId: gift.campaign.id } })).id,
    );
    expect(event.mailabilityReasons).toEqual(["po_box"]);
  });
});
