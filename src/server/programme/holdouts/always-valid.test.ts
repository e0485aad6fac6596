import { describe, expect, it } from "vitest";
import { alwaysValidLift, judgeAlwaysValid } from "./always-valid";
import { compareProportions } from "./lift";

/** Worked examples computed independently in Python (math module) from the formulas in always-valid.ts. */
describe("always-valid lift, worked example: 120/1000 treated vs 70/1000 held out", () => {
  const av = alwaysValidLift(120, 1000, 70, 1000);
  const fixed = compareProportions(120, 1000, 70, 1000);

  it("gives the confidence sequence and always-valid p-value of the normal-mixture mSPRT", () => {
    expect(av.absoluteLiftCi[0]).toBeCloseTo(0.008021497937851702, 9);
    expect(av.absoluteLiftCi[1]).toBeCloseTo(0.09197850206214828, 9);
    expect(av.pValue).toBeCloseTo(0.006071900951701487, 9);
  });

  it("is wider than the fixed-horizon interval around the same estimate: the price of reading it at any time", () => {
    expect(av.absoluteLiftCi[0]).toBeLessThan(fixed.absoluteLiftCi[0]);
    expect(av.absoluteLiftCi[1]).toBeGreaterThan(fixed.absoluteLiftCi[1]);
    expect(av.pValue).toBeGreaterThan(fixed.pValue);
  });
});

describe("always-valid edge cases", () => {
  it("an arm with no conversions still has a width; an empty arm says nothing", () => {
    const av = alwaysValidLift(5, 100, 0, 20);
    expect(av.absoluteLiftCi[0]).toBeCloseTo(-0.11155168568749686, 9);
    expect(av.absoluteLiftCi[1]).toBeCloseTo(0.21155168568749688, 9);
    expect(av.pValue).toBe(1);
    expect(alwaysValidLift(0, 0, 0, 0)).toEqual({ absoluteLiftCi: [-1, 1], pValue: 1 });
    expect(alwaysValidLift(0, 50, 0, 50).pValue).toBe(1);
  });

  it("verdicts: lift, negative, undecided, and the same floors as the fixed-horizon verdict", () => {
    const open = { holdoutObservable: true, tooSmall: false };
    expect(judgeAlwaysValid(120, 1000, 70, 1000, open)).toMatchObject({
      verdict: "lift",
      explanation:
        "Mail lifted this outcome (7.0% to 12.0%): the lift is in +0.8 to +9.2 pts however often these results have been read.",
    });
    expect(judgeAlwaysValid(70, 1000, 120, 1000, open).verdict).toBe("negative");
    // Significant at a fixed horizon (p about 0.03), not yet once every look is accounted for.
    expect(compareProportions(100, 1000, 75, 1000).pValue).toBeLessThan(0.05);
    expect(judgeAlwaysValid(100, 1000, 75, 1000, open)).toMatchObject({
      verdict: "undecided",
      explanation: expect.stringContaining("Keep the campaign running"),
    });
    expect(judgeAlwaysValid(120, 1000, 70, 1000, { holdoutObservable: true, tooSmall: true }).verdict).toBe(
      "not_enough_data",
    );
    expect(judgeAlwaysValid(120, 1000, 0, 0, { holdoutObservable: false, tooSmall: true }).verdict).toBe(
      "not_measurable",
    );
  });
});

/** mulberry32: a small seeded generator, so every run simulates the same campaigns. */
function seeded(seed: number) {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LOOKS = 50;
const CAMPAIGNS = 2000;
/** Twice the Monte Carlo standard error of a 5% rate over 2,000 campaigns (about 0.0049 each). */
const MARGIN = 0.01;

/**
 * Simulated campaigns: each account is held out with the planned share and converts with the
 * chance of its arm (`rate` treated, `heldRate` held out, the same when mail does nothing), up to
 * `maxDelay` looks after it enters (0: at once). The results are read at every one of 50 looks with
 * the floors of the real verdict (30 accounts an arm, 10 conversions). Returns the share of
 * campaigns where each verdict ever said "lift" or "negative", where the fixed-horizon one said it
 * at the last look alone, where the always-valid interval ever left out the true lift (outcomes at
 * once only: with delays the lift "so far" moves), and where the always-valid verdict ended "lift".
 */
function simulate(o: {
  perLook: number;
  enterLooks: number;
  share: number;
  rate: number;
  heldRate?: number;
  maxDelay: number;
}) {
  const rand = seeded(20_211_055);
  const heldRate = o.heldRate ?? o.rate;
  const trueLift = o.rate - heldRate;
  let everAlwaysValid = 0;
  let everFixed = 0;
  let fixedAtLastLook = 0;
  let missedTrueLift = 0;
  let liftAtLastLook = 0;
  for (let c = 0; c < CAMPAIGNS; c++) {
    // Conversions due at each look, per arm; counts only grow, so each look costs O(1).
    const dueT = new Array<number>(LOOKS + 1).fill(0);
    const dueH = new Array<number>(LOOKS + 1).fill(0);
    let nt = 0;
    let nh = 0;
    let xt = 0;
    let xh = 0;
    let alwaysValidSaid = false;
    let fixedSaid = false;
    let missed = false;
    for (let look = 0; look < LOOKS; look++) {
      if (look < o.enterLooks) {
        for (let i = 0; i < o.perLook; i++) {
          const held = rand() < o.share;
          if (held) nh++;
          else nt++;
          if (rand() < (held ? heldRate : o.rate)) {
            const at = look + Math.floor(rand() * (o.maxDelay + 1));
            if (at < LOOKS) (held ? dueH : dueT)[at]++;
          }
        }
      }
      xt += dueT[look];
      xh += dueH[look];
      const tooSmall = nh < 30 || nt < 30 || xt + xh < 10;
      if (tooSmall) continue;
      const av = judgeAlwaysValid(xt, nt, xh, nh, { holdoutObservable: true, tooSmall });
      if (av.verdict === "lift" || av.verdict === "negative") alwaysValidSaid = true;
      if (av.absoluteLiftCi[0] > trueLift || av.absoluteLiftCi[1] < trueLift) missed = true;
      if (av.verdict === "lift" && look === LOOKS - 1) liftAtLastLook++;
      // The fixed-horizon verdict's rule (results.ts): p below 0.05 and the interval clear of zero.
      const fixed = compareProportions(xt, nt, xh, nh);
      const fixedSays = fixed.pValue < 0.05 && (fixed.absoluteLiftCi[0] > 0 || fixed.absoluteLiftCi[1] < 0);
      if (fixedSays) fixedSaid = true;
      if (fixedSays && look === LOOKS - 1) fixedAtLastLook++;
    }
    if (alwaysValidSaid) everAlwaysValid++;
    if (fixedSaid) everFixed++;
    if (missed) missedTrueLift++;
  }
  return {
    alwaysValid: everAlwaysValid / CAMPAIGNS,
    fixedPeeked: everFixed / CAMPAIGNS,
    fixedOnce: fixedAtLastLook / CAMPAIGNS,
    missedTrueLift: missedTrueLift / CAMPAIGNS,
    liftAtEnd: liftAtLastLook / CAMPAIGNS,
  };
}

describe("false verdicts when there is no lift and the results are read 50 times", () => {
  it("accounts entering over the whole campaign, outcomes at once: the always-valid verdict stays under 5%", () => {
    const r = simulate({ perLook: 40, enterLooks: LOOKS, share: 0.2, rate: 0.05, maxDelay: 0 });
    expect(r.alwaysValid).toBeLessThanOrEqual(0.05 + MARGIN);
    // Read once, at the end, the fixed-horizon verdict declares a lift or a loss about 5% of the time...
    expect(r.fixedOnce).toBeGreaterThan(0.05 - MARGIN * 2);
    expect(r.fixedOnce).toBeLessThanOrEqual(0.05 + MARGIN * 2);
    // ...read at every look, it declares a lift or a loss that is not there far more often.
    expect(r.fixedPeeked).toBeGreaterThan(0.15);
  });

  it("accounts entering over the first half, each outcome up to 30 looks later: still under 5%", () => {
    const r = simulate({ perLook: 80, enterLooks: 25, share: 0.2, rate: 0.05, maxDelay: 29 });
    expect(r.alwaysValid).toBeLessThanOrEqual(0.05 + MARGIN);
    expect(r.fixedPeeked).toBeGreaterThan(0.15);
  });
});

describe("when mail does lift the outcome", () => {
  it("the interval holds the true lift at every look in at least 95% of campaigns, and finds the lift in most", () => {
    const r = simulate({ perLook: 40, enterLooks: LOOKS, share: 0.5, rate: 0.09, heldRate: 0.05, maxDelay: 0 });
    expect(r.missedTrueLift).toBeLessThanOrEqual(0.05 + MARGIN);
    expect(r.liftAtEnd).toBeGreaterThan(0.5);
    // The price of safe peeking: a single fixed-horizon read at the end finds it more often.
    expect(r.fixedOnce).toBeGreaterThan(r.liftAtEnd);
  });
});
