import { describe, expect, it } from "vitest";
import { compareProportions, incrementalMoney, sampleRatioMismatch, wilson } from "./lift";

/** Worked example computed independently in Python (statistics.NormalDist). */
describe("lift statistics, worked example: 120/1000 treated vs 70/1000 held out", () => {
  const r = compareProportions(120, 1000, 70, 1000);

  it("rates and absolute lift with Newcombe's interval", () => {
    expect(r.treatedRate).toBe(0.12);
    expect(r.holdoutRate).toBe(0.07);
    expect(r.absoluteLift).toBeCloseTo(0.05, 12);
    expect(r.absoluteLiftCi[0]).toBeCloseTo(0.024378123528496155, 9);
    expect(r.absoluteLiftCi[1]).toBeCloseTo(0.07587013675825914, 9);
  });

  it("relative lift with the Katz log interval", () => {
    expect(r.relativeLift).toBeCloseTo(0.714285714285714, 9);
    expect(r.relativeLiftCi![0]).toBeCloseTo(0.29376778355917943, 9);
    expect(r.relativeLiftCi![1]).toBeCloseTo(1.2714860793020009, 9);
  });

  it("two-sided p-value of the pooled two-proportion z-test", () => {
    expect(r.pValue).toBeCloseTo(0.0001372798233059136, 9);
  });
});

describe("edge cases", () => {
  it("no conversions in an arm: no relative lift, an honest interval, p = 1 without data", () => {
    const r = compareProportions(5, 100, 0, 20);
    expect(r.relativeLift).toBeNull();
    expect(r.relativeLiftCi).toBeNull();
    expect(r.absoluteLiftCi[0]).toBeLessThan(0);
    expect(compareProportions(0, 0, 0, 0).pValue).toBe(1);
    expect(wilson(0, 0)).toEqual([0, 1]);
  });
});

describe("incrementalMoney", () => {
  it("is the difference of means per account times the treated accounts, with Welch's interval", () => {
    const m = incrementalMoney([1000, 0, 0, 3000], [0, 500, 0]);
    expect(m.perAccount).toBeCloseTo(833.3333333333334, 9);
    expect(m.perAccountCi[0]).toBeCloseTo(-590.5474902649013, 6);
    expect(m.perAccountCi[1]).toBeCloseTo(2257.214156931568, 6);
    expect(m.total).toBeCloseTo(3333.3333333333335, 9);
    expect(m.totalCi[0]).toBeCloseTo(-2362.189961059605, 6);
    expect(m.totalCi[1]).toBeCloseTo(9028.856627726273, 6);
    // Its interval includes zero: shown as "not significant", never as a headline gain.
    expect(m.significant).toBe(false);
    expect(incrementalMoney([5000, 5200, 4800, 5100], [0, 100, 0]).significant).toBe(true);
    expect(incrementalMoney([0, 0, 0], [5000, 5200, 4800]).significant).toBe(true);
  });
});

describe("sampleRatioMismatch", () => {
  it("accepts arms that fit the planned share and flags ones that do not", () => {
    const fine = sampleRatioMismatch(180, 820, 0.2);
    expect(fine.chiSquare).toBeCloseTo(2.5, 12);
    expect(fine.pValue).toBeCloseTo(0.11384629800665813, 9);
    expect(fine.mismatch).toBe(false);
    const broken = sampleRatioMismatch(250, 750, 0.2);
    expect(broken.chiSquare).toBeCloseTo(15.625, 12);
    expect(broken.pValue).toBeCloseTo(7.722679550559164e-5, 12);
    expect(broken.mismatch).toBe(true);
  });
});

describe("sample ratio without a holdout", () => {
  it("a plan with no holdout expects none: zero held out is fine, any held out is a mismatch (never a division by zero)", () => {
    expect(sampleRatioMismatch(0, 40, 0)).toEqual({ chiSquare: 0, pValue: 1, mismatch: false });
    expect(sampleRatioMismatch(2, 40, 0)).toEqual({ chiSquare: 0, pValue: 0, mismatch: true });
  });
});
