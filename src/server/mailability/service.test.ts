import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import type { Actor } from "@/server/audit/service";
import { AppError } from "@/server/errors";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { drain, eventRow, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";
import { auditProblemsCsv } from "./export";
import { applyFix, auditProblems, getAudit, latestAudit, listAudits, runAudit } from "./service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const owner: Actor = { kind: "user", id: null, label: "owner@example.test" };
const refusal = (p: Promise<unknown>) => p.then(() => null, (e: AppError) => ({ code: e.code, message: e.message }));

describe("mailability audits (issue 14)", () => {
  it("counts an audience by status, reason, country and account, keeps each run, and a fix accepted shows in the next run", async () => {
    const f = await liveCampaign(prisma, { accounts: 3, perAccount: 2 });
    const [a, b, c, d, e] = f.contacts;
    // a: a ZIP code cut to four digits (fixable); b: no city; c: the same person at the same address as d; e: suppressed by email.
    await prisma.contact.update({ where: { id: a.id }, data: { postalCode: "2116" } });
    await prisma.contact.update({ where: { id: b.id }, data: { city: null } });
    await prisma.contact.update({ where: { id: d.id }, data: { firstName: c.firstName, lastName: c.lastName, addressLine1: c.addressLine1, addressLine2: c.addressLine2 } });
    await prisma.suppression.create({ data: { workspaceId: f.workspaceId, kind: "email", value: e.email!, reason: "opt_out" } });

    const first = await runAudit(prisma, { workspaceId: f.workspaceId, audienceId: f.audience.id, actor: owner });
    const report = await getAudit(prisma, { workspaceId: f.workspaceId, auditId: first.id });
    expect(report).toMatchObject({ status: "succeeded", contacts: 6, mailable: 2, fixable: 1, unmailable: 3, accounts: 3, accountsWithMailableContact: 2, coveredCountries: ["US"] });
    expect(report.reasons).toEqual({ invalid_postal_code: 1, missing_city: 1, duplicate_contact: 1, duplicate_address: 1, suppressed: 1 });
    expect(report.byCountry).toEqual([{ country: "US", contacts: 6, mailable: 2 }]);
    expect(report.costs).toEqual([{ format: "postcard", unitCostCents: 120, totalCents: 240 }]);
    expect(report.samples[0]).toMatchObject({ status: "unmailable" });
    expect(report.samples.find((s) => s.contactId === a.id)).toEqual({ contactId: a.id, status: "fixable", reasons: ["invalid_postal_code"], suggestion: { postalCode: "02116" } });

    const missingCity = await auditProblems(prisma, { workspaceId: f.workspaceId, auditId: first.id, reason: "missing_city", take: 10 });
    expect(missingCity.items.map((i) => i.contactId)).toEqual([b.id]);
    expect(missingCity.items[0].contact).toMatchObject({ city: null, postalCode: "02116", company: "Account 0" });

    const fixed = await applyFix(prisma, { workspaceId: f.workspaceId, contactId: a.id, actor: owner });
    expect(fixed).toMatchObject({ changed: { postalCode: { from: "2116", to: "02116" } }, mailability: { status: "mailable" } });
    expect(await prisma.auditLogEntry.findFirst({ where: { workspaceId: f.workspaceId, action: "contact.updated", targetId: a.id } })).toMatchObject({ actorLabel: "owner@example.test", data: { fields: expect.arrayContaining(["postalCode"]) } });
    // Nothing left to accept: a clear refusal, nothing written.
    expect(await refusal(applyFix(prisma, { workspaceId: f.workspaceId, contactId: a.id, actor: owner }))).toEqual({ code: "invalid_state", message: "The contact is mailable already: there is nothing to fix." });
    expect(await refusal(applyFix(prisma, { workspaceId: f.workspaceId, contactId: b.id, actor: owner }))).toMatchObject({ code: "invalid_state", message: expect.stringContaining("missing_city") });

    const second = await runAudit(prisma, { workspaceId: f.workspaceId, audienceId: f.audience.id, actor: owner });
    expect(second).toMatchObject({ mailable: 3, fixable: 0 });
    expect((await listAudits(prisma, { workspaceId: f.workspaceId })).map((x) => x.auditId)).toEqual([second.id, first.id]);
    expect(await latestAudit(prisma, { workspaceId: f.workspaceId, audienceId: f.audience.id })).toMatchObject({ auditId: second.id, unmailableShare: 0.5 });
  });

  it("the lifecycle skips the contacts the audit calls unmailable for their address, and mails the ones it calls mailable", async () => {
    const clock = testClock();
    const f = await liveCampaign(prisma, { accounts: 2, perAccount: 1, campaign: { holdoutShare: 0 } });
    const [good, bad] = f.contacts;
    await prisma.contact.update({ where: { id: bad.id }, data: { region: "ON" } });
    const audit = await getAudit(prisma, { workspaceId: f.workspaceId, auditId: (await runAudit(prisma, { workspaceId: f.workspaceId, audienceId: f.audience.id, actor: owner })).id });
    expect(audit.samples).toEqual([{ contactId: bad.id, status: "unmailable", reasons: ["invalid_region"] }]);

    const events = [await postEvent(prisma, f, good.id, clock.now()), await postEvent(prisma, f, bad.id, clock.now())];
    clock.advance(60_000);
    await drain(prisma, clock, f.workspaceId);
    expect((await eventRow(prisma, events[0].eventId)).status).toBe("completed");
    expect(await eventRow(prisma, events[1].eventId)).toMatchObject({ status: "skipped", skipReason: "address_invalid" });
  });

  it("exports the problems as formula-safe CSV, optionally of one reason", async () => {
    const f = await liveCampaign(prisma, { accounts: 2, perAccount: 1 });
    await prisma.contact.update({ where: { id: f.contacts[0].id }, data: { firstName: '=HYPERLINK("http://evil.example")', city: null } });
    const audit = await runAudit(prisma, { workspaceId: f.workspaceId, audienceId: f.audience.id, actor: owner });
    let csv = "";
    for await (const chunk of auditProblemsCsv(prisma, { workspaceId: f.workspaceId, auditId: audit.id })) csv += chunk;
    const lines = csv.replace(/^\uFEFF/, "").trim().split("\r\n");
    expect(lines[0]).toBe("Contact ID,First Name,Last Name,Email,Company,Address Line 1,Address Line 2,City,State/Province,Postal Code,Country,Status,Reasons,Reason Codes,Suggested Postal Code");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`${f.contacts[0].id},"'=HYPERLINK(""http://evil.example"")",Tester,`);
    expect(lines[1]).toMatch(/,unmailable,No city,missing_city,$/);
    let none = "";
    for await (const chunk of auditProblemsCsv(prisma, { workspaceId: f.workspaceId, auditId: audit.id, reason: "suppressed" })) none += chunk;
    expect(none.trim().split("\r\n")).toHaveLength(1);
  });

  it("another workspace's audience, audit and contact are not found, and nothing is written", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1 });
    const other = await createOwnerWorkspace(prisma);
    const audit = await runAudit(prisma, { workspaceId: f.workspaceId, audienceId: f.audience.id, actor: owner });
    expect(await refusal(runAudit(prisma, { workspaceId: other.workspaceId, audienceId: f.audience.id, actor: owner }))).toMatchObject({ code: "not_found" });
    expect(await refusal(getAudit(prisma, { workspaceId: other.workspaceId, auditId: audit.id }))).toMatchObject({ code: "not_found" });
    expect(await refusal(applyFix(prisma, { workspaceId: other.workspaceId, contactId: f.contacts[0].id, actor: owner }))).toMatchObject({ code: "not_found" });
    expect(await prisma.mailabilityAudit.count({ where: { workspaceId: other.workspaceId } })).toBe(0);
  });
});
