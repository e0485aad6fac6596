import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace, uniq } from "@/test/factories";
import { importOutcomes } from "./outcomes";
import { getCampaignDetail } from "@/server/programme/campaigns/service";
import { getCampaignResults } from "./results";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});
const DAY = 86_400_000;

/** A campaign with `treated` mailed and `held` held-out accounts, each one contact; pieces mailed 30 days ago. */
async function measuredCampaign(treated: number, held: number) {
  const o = await createOwnerWorkspace(prisma);
  const ws = o.workspaceId;
  const campaign = await prisma.campaign.create({
    data: {
      workspaceId: ws,
      name: "Measured",
      format: "postcard",
      status: "ended",
      holdoutShare: held / (treated + held),
    },
  });
  const mailedAt = new Date(Date.now() - 30 * DAY);
  const accounts: { id: string; domain: string; arm: "treatment" | "holdout"; pieceId?: string }[] = [];
  for (let i = 0; i < treated + held; i++) {
    const arm = i < treated ? ("treatment" as const) : ("holdout" as const);
    const domain = `${uniq("m")}.example`;
    const account = await prisma.account.create({
      data: { workspaceId: ws, name: `A${i}`, domain, crmId: `crm-${domain}` },
    });
    const contact = await prisma.contact.create({
      data: { workspaceId: ws, accountId: account.id, firstName: "F", lastName: `${i}` },
    });
    const event = await prisma.entryEvent.create({
      data: {
        workspaceId: ws,
        campaignId: campaign.id,
        contactId: contact.id,
        idempotencyKey: uniq(),
        fingerprint: "x",
        occurredAt: mailedAt,
        status: arm === "treatment" ? "completed" : "held_out",
      },
    });
    const enrollment = await prisma.enrollment.create({
      data: {
        workspaceId: ws,
        campaignId: campaign.id,
        contactId: contact.id,
        accountId: account.id,
        entryEventId: event.id,
        arm,
        status: arm === "treatment" ? "mailed" : "held_out",
        createdAt: mailedAt,
      },
    });
    let pieceId: string | undefined;
    if (arm === "treatment") {
      const sid = uniq("s").padEnd(16, "0").slice(0, 16);
      pieceId = (
        await prisma.mailPiece.create({
          data: {
            workspaceId: ws,
            campaignId: campaign.id,
            enrollmentId: enrollment.id,
            contactId: contact.id,
            sid,
            responseCode: sid.slice(0, 10),
            status: "mailed",
            mailedAt,
          },
        })
      ).id;
    }
    accounts.push({ id: account.id, domain, arm, pieceId });
    await prisma.holdoutAssignment.create({
      data: { workspaceId: ws, campaignId: campaign.id, accountId: account.id, arm },
    });
  }
  // Two accounts assigned at go-live that have not been mailed or entered yet: assigned, not measured.
  for (const arm of ["treatment", "holdout"] as const) {
    const account = await prisma.account.create({
      data: { workspaceId: ws, name: `Waiting ${arm}`, domain: `${uniq("w")}.example` },
    });
    await prisma.holdoutAssignment.create({
      data: { workspaceId: ws, campaignId: campaign.id, accountId: account.id, arm },
    });
  }
  return { ...o, campaign, accounts, mailedAt, actor: { kind: "user" as const, id: o.user.id, label: o.user.email } };
}

describe("importOutcomes", () => {
  it("matches accounts by domain or CRM id and is idempotent; one bad row and nothing is written, every bad row listed", async () => {
    const f = await measuredCampaign(2, 1);
    const [a, b] = f.accounts;
    const good = [
      { account: a.domain.toUpperCase(), kind: "meeting_booked", at: "2026-10-01" },
      {
        account: `crm-${b.domain}`,
        kind: "pipeline_dollars",
        at: "2026-10-02T10:00:00Z",
        amountCents: 500_000,
        externalId: "opp-1",
      },
    ];
    const bad = [
      { account: "nobody.example", kind: "reply", at: "2026-10-01" },
      { account: a.domain, kind: "demo", at: "2026-10-01" },
      { account: a.domain, kind: "closed_won", at: "2026-10-01" },
      { account: a.domain, kind: "reply", at: "someday" },
      { account: a.domain, kind: "reply", at: "0000-06-01T00:00:00+14:00" },
      { account: b.domain, kind: "pipeline_dollars", at: "2026-10-03", amountCents: 1, externalId: "opp-1" },
    ];
    const refused = await importOutcomes(prisma, {
      workspaceId: f.workspaceId,
      rows: [...good, ...bad],
      source: "csv",
      actor: f.actor,
    });
    expect(refused).toEqual({
      created: 0,
      unchanged: 0,
      errors: [
        { row: 3, message: "No account nobody.example in this workspace." },
        { row: 4, message: expect.stringMatching(/^kind must be one of reply/) },
        { row: 5, message: "closed_won needs an amount." },
        { row: 6, message: "at must be a date or date-time, like 2026-10-03 or 2026-10-03T14:00:00Z." },
        { row: 7, message: "at must be between 1970-01-01 and 9999-12-31." },
        {
          row: 8,
          message: `This pipeline_dollars of ${b.domain} was given earlier in this file with other values; give it its own external id.`,
        },
      ],
    });
    expect(await prisma.accountOutcome.count({ where: { workspaceId: f.workspaceId } })).toBe(0);

    expect(
      await importOutcomes(prisma, { workspaceId: f.workspaceId, rows: good, source: "csv", actor: f.actor }),
    ).toEqual({ created: 2, unchanged: 0, errors: [] });
    expect(
      await importOutcomes(prisma, { workspaceId: f.workspaceId, rows: good, source: "csv", actor: f.actor }),
    ).toEqual({ created: 0, unchanged: 2, errors: [] });
    const changed = await importOutcomes(prisma, {
      workspaceId: f.workspaceId,
      rows: [
        { account: a.domain, kind: "reply", at: "2026-10-05" },
        { ...good[1], amountCents: 1 },
      ],
      source: "csv",
      actor: f.actor,
    });
    expect(changed).toEqual({
      created: 0,
      unchanged: 0,
      errors: [{ row: 2, message: expect.stringMatching(/imported before with other values/) }],
    });
    expect(await prisma.accountOutcome.count({ where: { workspaceId: f.workspaceId } })).toBe(2);
  });

  it("never matches another workspace's accounts", async () => {
    const f = await measuredCampaign(1, 0);
    const other = await createOwnerWorkspace(prisma);
    const report = await importOutcomes(prisma, {
      workspaceId: other.workspaceId,
      rows: [{ account: f.accounts[0].domain, kind: "reply", at: "2026-10-01" }],
      source: "csv",
      actor: f.actor,
    });
    expect(report.created).toBe(0);
    expect(report.errors).toHaveLength(1);
  });
});

describe("getCampaignResults", () => {
  it("compares treated and held-out accounts per kind within the attribution window", async () => {
    const f = await measuredCampaign(60, 40);
    const treated = f.accounts.filter((a) => a.arm === "treatment");
    const held = f.accounts.filter((a) => a.arm === "holdout");
    const day = (n: number) => new Date(f.mailedAt.getTime() + n * DAY).toISOString();
    const rows = [
      ...treated
        .slice(0, 18)
        .map((a, i) => ({ account: a.domain, kind: "meeting_booked", at: day(5), externalId: `m${i}` })),
      ...held
        .slice(0, 4)
        .map((a, i) => ({ account: a.domain, kind: "meeting_booked", at: day(5), externalId: `h${i}` })),
      // Outside the window (before mailing) and in the future: not counted.
      { account: held[10].domain, kind: "meeting_booked", at: day(-3) },
      { account: held[11].domain, kind: "meeting_booked", at: day(60) },
      ...treated
        .slice(0, 10)
        .map((a) => ({ account: a.domain, kind: "pipeline_dollars", at: day(10), amountCents: 1_000_000 })),
      ...held
        .slice(0, 2)
        .map((a) => ({ account: a.domain, kind: "pipeline_dollars", at: day(10), amountCents: 1_000_000 })),
    ];
    expect(
      (await importOutcomes(prisma, { workspaceId: f.workspaceId, rows, source: "crm", actor: f.actor })).errors,
    ).toEqual([]);
    // A reply reported through a response link (treated accounts only).
    await prisma.conversion.create({
      data: {
        workspaceId: f.workspaceId,
        campaignId: f.campaign.id,
        pieceId: treated[0].pieceId!,
        kind: "reply",
        at: new Date(day(2)),
        occurrenceKey: "-",
        fingerprint: "x",
      },
    });
    await prisma.responseEvent.create({
      data: {
        workspaceId: f.workspaceId,
        campaignId: f.campaign.id,
        pieceId: treated[1].pieceId!,
        kind: "scan",
        occurredAt: new Date(day(1)),
      },
    });

    const r = await getCampaignResults(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id });
    expect(r.attributionWindowDays).toBe(90);
    expect(r.arms).toEqual({ treatment: 60, holdout: 40 });
    // The campaign page and Results say the same: assigned at go-live, and of those the accounts measured.
    expect(r.assigned).toEqual({ treatment: 61, holdout: 41 });
    const detail = await getCampaignDetail(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id });
    expect(detail.armAccounts).toEqual(r.assigned);
    expect(detail.measuredAccounts).toEqual(r.arms);
    expect(r.sampleRatio.mismatch).toBe(false);
    expect(r.responses).toMatchObject({ scans: 1, clicks: 0, respondingAccounts: 1 });

    const meetings = r.kinds.find((k) => k.kind === "meeting_booked")!;
    expect(meetings).toMatchObject({
      treated: { accounts: 60, converted: 18 },
      holdout: { accounts: 40, converted: 4 },
      treatedRate: 0.3,
      holdoutRate: 0.1,
      holdoutObservable: true,
    });
    expect(meetings.pValue).toBeLessThan(0.05);
    expect(meetings.verdict).toBe("lift");
    // Read at any time, 60 against 40 accounts cannot yet rule out no lift: the interval safe to
    // peek at is wider and still includes zero (values from always-valid.ts's formulas, in Python).
    expect(meetings.alwaysValid.absoluteLiftCi[0]).toBeCloseTo(-0.06325690117261848, 9);
    expect(meetings.alwaysValid.absoluteLiftCi[1]).toBeCloseTo(0.4632569011726184, 9);
    expect(meetings.alwaysValid.pValue).toBeCloseTo(0.21757341444064338, 9);
    expect(meetings.alwaysValid.verdict).toBe("undecided");

    const pipeline = r.kinds.find((k) => k.kind === "pipeline_dollars")!;
    expect(pipeline.money!.meanTreated).toBeCloseTo((10 * 1_000_000) / 60, 6);
    expect(pipeline.money!.meanHoldout).toBeCloseTo((2 * 1_000_000) / 40, 6);
    expect(pipeline.money!.total).toBeCloseTo(((10 * 1_000_000) / 60 - (2 * 1_000_000) / 40) * 60, 4);

    const replies = r.kinds.find((k) => k.kind === "reply")!;
    expect(replies).toMatchObject({
      holdoutObservable: false,
      verdict: "not_measurable",
      alwaysValid: { verdict: "not_measurable" },
    });
  });

  it("says there is not enough data yet for a small test, and flags a broken split", async () => {
    const f = await measuredCampaign(12, 3);
    await importOutcomes(prisma, {
      workspaceId: f.workspaceId,
      rows: [{ account: f.accounts[0].domain, kind: "signup", at: f.mailedAt.toISOString() }],
      source: "csv",
      actor: f.actor,
    });
    const r = await getCampaignResults(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id });
    expect(r.kinds[0]).toMatchObject({
      kind: "signup",
      verdict: "not_enough_data",
      alwaysValid: { verdict: "not_enough_data" },
    });
    expect(r.kinds[0].explanation).toMatch(
      /^Not enough data yet: 3 held-out and 12 treated accounts with 1 conversions/,
    );
  });

  it("detects a sample-ratio mismatch against the planned share", async () => {
    const f = await measuredCampaign(40, 40);
    await prisma.campaign.update({ where: { id: f.campaign.id }, data: { holdoutShare: 0.1 } });
    const r = await getCampaignResults(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id });
    expect(r.sampleRatio.mismatch).toBe(true);
  });
});
