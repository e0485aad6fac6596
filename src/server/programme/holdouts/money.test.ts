import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { workspaceWithCampaigns } from "@/test/campaigns-over-audience";
import { testDatabase } from "@/test/database";
import { importOutcomes } from "./outcomes";
import { getProgrammeResults } from "./programme-results";
import { getCampaignResults } from "./results";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});
const DAY = 86_400_000;

describe("money in results", () => {
  it("divides the campaign's real spend by its incremental outcomes, and gives no cost, with the reason, where lift is not measurable", async () => {
    const w = await workspaceWithCampaigns(prisma, 80);
    const c = await w.campaign("Measured", 0.5);
    const arms = await prisma.holdoutAssignment.findMany({
      where: { campaignId: c.id },
      include: { account: { select: { domain: true } } },
    });
    const treated = arms.filter((a) => a.arm === "treatment").map((a) => a.account.domain!);
    const held = arms.filter((a) => a.arm === "holdout").map((a) => a.account.domain!);
    expect([treated.length, held.length]).toEqual([40, 40]);
    const at = new Date(Date.now() + 2 * DAY).toISOString();
    const row = (account: string, kind: string, amountCents?: number) => ({ account, kind, at, amountCents });
    const report = await importOutcomes(prisma, {
      workspaceId: w.workspaceId,
      source: "crm",
      actor: { kind: "user", id: w.user.id, label: w.user.email },
      rows: [
        ...treated.slice(0, 30).map((d) => row(d, "meeting_booked")),
        ...held.slice(0, 2).map((d) => row(d, "meeting_booked")),
        ...treated.slice(0, 20).map((d) => row(d, "closed_won", 50_000)),
        ...held.slice(0, 1).map((d) => row(d, "closed_won", 50_000)),
        row(treated[0], "signup"),
      ],
    });
    expect(report.errors).toEqual([]);

    const r = await getCampaignResults(prisma, {
      workspaceId: w.workspaceId,
      campaignId: c.id,
      now: new Date(Date.now() + 10 * DAY),
    });
    // The spend is what the lifecycle charged: 40 mailed pieces at 1.20 USD.
    const charged = await prisma.budgetReservation.aggregate({
      where: { campaignId: c.id, status: "charged" },
      _sum: { amountCents: true },
    });
    expect(r.spendCents).toBe(charged._sum.amountCents);
    expect(r.spendCents).toBe(40 * 120);

    const meetings = r.kinds.find((k) => k.kind === "meeting_booked")!;
    expect(meetings.verdict).toBe("lift");
    // 30 of 40 mailed against 2 of 40 held out: 28 meetings the mail added.
    expect(meetings.incremental).toBeCloseTo(28, 9);
    expect(meetings.costPerIncrementalCents).toBe(Math.round(4800 / 28));
    expect(meetings.costPerIncrementalReason).toBeNull();
    const [cheap, dear] = meetings.costPerIncrementalCiCents!;
    expect(cheap!).toBeLessThan(meetings.costPerIncrementalCents!);
    expect(dear!).toBeGreaterThan(meetings.costPerIncrementalCents!);
    expect(meetings.incrementalPerDollar).toBeNull();

    const won = r.kinds.find((k) => k.kind === "closed_won")!;
    expect(won.verdict).toBe("lift");
    // 20 x 500 USD among 40 mailed against 1 x 500 USD among 40 held out: 9,500 USD incremental, per 48 USD spent.
    expect(won.money!.total).toBeCloseTo(950_000, 6);
    expect(won.incrementalPerDollar).toBeCloseTo(950_000 / 4800, 9);
    expect(won.costPerIncrementalCents).toBe(Math.round(4800 / 19));

    const signups = r.kinds.find((k) => k.kind === "signup")!;
    expect(signups.verdict).toBe("not_enough_data");
    expect(signups.costPerIncrementalCents).toBeNull();
    expect(signups.costPerIncrementalCiCents).toBeNull();
    expect(signups.costPerIncrementalReason).toBe(`Lift is not measurable yet: ${signups.explanation}`);

    // The programme view: no programme holdout here, so nothing to compare all mail with.
    const p = await getProgrammeResults(prisma, { workspaceId: w.workspaceId, now: new Date(Date.now() + 10 * DAY) });
    expect(p.spendCents).toBe(4800);
    expect(p.arms).toEqual({ treatment: 40, holdout: 0 });
    const pm = p.kinds.find((k) => k.kind === "meeting_booked")!;
    expect(pm.costPerIncrementalCents).toBeNull();
    expect(pm.costPerIncrementalReason).toContain("Not enough data yet: 0 held-out and 40 treated accounts");
  }, 120_000);
});
