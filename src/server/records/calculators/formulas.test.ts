import { describe, expect, it } from "vitest";
import { breakEven, holdoutSize, minimumDetectableLift, testDuration } from "./formulas";
import { ZBreakEvenInput, ZHoldoutSizeInput, ZMinimumDetectableLiftInput, ZTestDurationInput } from "./schema";

/** Expected sizes computed independently (Python, statistics.NormalDist, the same published formula). */
const holdoutTable: [number, number, number, number, number, number, number][] = [
  // baselineRate, relativeLift, alpha, power, holdoutShare -> holdout, treated
  [0.07, 0.2, 0.05, 0.8, 0.5, 5691, 5691],
  [0.07, 0.2, 0.05, 0.8, 0.2, 3626, 14502],
  [0.02, 0.5, 0.05, 0.8, 0.5, 3826, 3826],
  [0.1, 0.1, 0.01, 0.9, 0.5, 27964, 27964],
  [0.3, 0.05, 0.05, 0.8, 0.3, 10634, 24812],
  // at the bounds
  [0.0001, 10, 0.2, 0.5, 0.05, 1814, 34454],
  [0.9, 0.01, 0.001, 0.99, 0.95, 676900, 35627],
];

describe("holdoutSize", () => {
  it.each(holdoutTable)(
    "baseline %f, lift %f, alpha %f, power %f, share %f -> %i held out, %i treated",
    (b, l, a, p, h, holdout, treated) => {
      const r = holdoutSize({ baselineRate: b, relativeLift: l, alpha: a, power: p, holdoutShare: h });
      expect([r.holdoutSize, r.treatedSize]).toEqual([holdout, treated]);
      expect(r.totalSize).toBe(holdout + treated);
      expect(r.treatedRate).toBeCloseTo(b * (1 + l), 12);
    },
  );

  it("applies the defaults the issue names: 0.07 and 0.2 need 5,691 per arm", () => {
    const input = ZHoldoutSizeInput.parse({ baselineRate: 0.07, relativeLift: 0.2 });
    expect(input).toEqual({ baselineRate: 0.07, relativeLift: 0.2, alpha: 0.05, power: 0.8, holdoutShare: 0.5 });
    expect(holdoutSize(input)).toMatchObject({ holdoutSize: 5691, treatedSize: 5691, totalSize: 11382 });
  });

  it("needs more units for smaller lifts and more power", () => {
    const base = { baselineRate: 0.05, alpha: 0.05, holdoutShare: 0.5 };
    expect(holdoutSize({ ...base, relativeLift: 0.1, power: 0.8 }).totalSize).toBeGreaterThan(
      holdoutSize({ ...base, relativeLift: 0.2, power: 0.8 }).totalSize,
    );
    expect(holdoutSize({ ...base, relativeLift: 0.2, power: 0.9 }).totalSize).toBeGreaterThan(
      holdoutSize({ ...base, relativeLift: 0.2, power: 0.8 }).totalSize,
    );
  });
});

describe("minimumDetectableLift", () => {
  it.each([
    [0.05, 10_000, 0.2, 0.3331879135156933],
    [0.07, 2_000, 0.5, 0.5060067480660319],
    [0.02, 500, 0.2, 3.859601859060365],
  ])("baseline %f, audience %i, share %f -> lift %f", (b, n, h, lift) => {
    const r = minimumDetectableLift({ baselineRate: b, audienceSize: n, alpha: 0.05, power: 0.8, holdoutShare: h })!;
    expect(r.relativeLift).toBeCloseTo(lift, 6);
    // Round trip: that lift needs (about) the whole audience.
    const need = holdoutSize({
      baselineRate: b,
      relativeLift: r.relativeLift,
      alpha: 0.05,
      power: 0.8,
      holdoutShare: h,
    });
    expect(Math.abs(need.totalSize - n)).toBeLessThanOrEqual(2);
  });

  it("says when no lift is detectable", () => {
    expect(
      minimumDetectableLift({ baselineRate: 0.5, audienceSize: 20, alpha: 0.05, power: 0.8, holdoutShare: 0.2 }),
    ).toBeNull();
  });
});

describe("breakEven", () => {
  it("is cost over the value of a response, and the ROI follows", () => {
    const r = breakEven({
      costPerPieceCents: 300,
      dealValueCents: 2_000_000,
      winRate: 0.1,
      grossMargin: 1,
      responseRate: 0.01,
    });
    expect(r.valuePerResponseCents).toBe(200_000);
    expect(r.breakEvenResponseRate).toBeCloseTo(0.0015, 12);
    expect(r.piecesPerWin).toBeCloseTo(6666.6667, 3);
    expect(r.expected).toEqual({
      valuePerPieceCents: 2000,
      roi: (2000 - 300) / 300,
      profitPer1000PiecesCents: 1_700_000,
    });
    expect(
      breakEven({ costPerPieceCents: 300, dealValueCents: 2_000_000, winRate: 0.1, grossMargin: 0.5 })
        .breakEvenResponseRate,
    ).toBeCloseTo(0.003, 12);
  });
});

describe("testDuration", () => {
  it("weeks to enrol the required sample plus the attribution window", () => {
    const r = testDuration(ZTestDurationInput.parse({ baselineRate: 0.07, relativeLift: 0.2, weeklyVolume: 1000 }));
    expect(r).toMatchObject({
      holdoutSize: 3626,
      treatedSize: 14502,
      totalSize: 18128,
      weeksToEnroll: 19,
      totalDays: 163,
    });
  });
});

describe("parameters", () => {
  const messages = (r: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    Object.fromEntries(r.error!.issues.map((i) => [i.path.join("."), i.message]));

  it("name each bad parameter with its bound", () => {
    expect(
      messages(
        ZHoldoutSizeInput.safeParse({
          baselineRate: 1.5,
          relativeLift: Number.NaN,
          alpha: 0.5,
          power: 0.2,
          holdoutShare: 0,
        }),
      ),
    ).toEqual({
      baselineRate: "baselineRate must be at most 0.9 (conversion rate of the holdout arm, as a fraction: 7% is 0.07).",
      relativeLift:
        "relativeLift must be a number from 0.01 to 10 (lift of the treated arm over the baseline, as a fraction: +20% is 0.2).",
      alpha: "alpha must be at most 0.2 (two-sided significance level).",
      power: "power must be at least 0.5 (probability of detecting the lift if it is real).",
      holdoutShare: "holdoutShare must be at least 0.05 (share of the audience held out).",
    });
    expect(messages(ZHoldoutSizeInput.safeParse({}))).toEqual({
      baselineRate:
        "baselineRate is required: a number from 0.0001 to 0.9 (conversion rate of the holdout arm, as a fraction: 7% is 0.07).",
      relativeLift:
        "relativeLift is required: a number from 0.01 to 10 (lift of the treated arm over the baseline, as a fraction: +20% is 0.2).",
    });
    expect(messages(ZHoldoutSizeInput.safeParse({ baselineRate: 0.6, relativeLift: 1 }))).toEqual({
      relativeLift: "baselineRate × (1 + relativeLift) must stay below 1: the treated arm's rate cannot reach 100%.",
    });
    expect(messages(ZMinimumDetectableLiftInput.safeParse({ baselineRate: 0.05, audienceSize: 10.5 }))).toEqual({
      audienceSize:
        "audienceSize must be a whole number from 20 to 100000000 (units in the test (accounts for account-level holdouts), both arms together).",
    });
    expect(
      messages(ZBreakEvenInput.safeParse({ costPerPieceCents: 100, dealValueCents: 100, winRate: 0.1, colour: 1 })),
    ).toMatchObject({ "": expect.stringContaining("colour") });
  });
});
