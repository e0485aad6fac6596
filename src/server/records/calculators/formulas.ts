import { z } from "./distributions";

/**
 * Planning arithmetic for a holdout test, pure and exact. Rates are fractions (7% is 0.07); the
 * holdout arm has the baseline rate and the treated arm baseline x (1 + relative lift).
 */

export const HOLDOUT_FORMULA =
  "Two-sided two-proportion z-test with pooled variance under the null hypothesis; unequal allocation per Fleiss: n_holdout = [z(1-α/2)·√(p̄q̄(1+1/k)) + z(power)·√(p₁q₁ + p₂q₂/k)]² / (p₂-p₁)², n_treated = k·n_holdout, k = (1-h)/h, p̄ = (p₁+k·p₂)/(1+k)";

export interface HoldoutSizeInput {
  baselineRate: number;
  relativeLift: number;
  alpha: number;
  power: number;
  holdoutShare: number;
}

/** Unrounded holdout-arm size, and the ratio k of treated to holdout. */
function exactHoldoutSize(i: HoldoutSizeInput): { n1: number; k: number } {
  const p1 = i.baselineRate;
  const p2 = i.baselineRate * (1 + i.relativeLift);
  const k = (1 - i.holdoutShare) / i.holdoutShare;
  const pbar = (p1 + k * p2) / (1 + k);
  const a = z(1 - i.alpha / 2) * Math.sqrt(pbar * (1 - pbar) * (1 + 1 / k));
  const b = z(i.power) * Math.sqrt(p1 * (1 - p1) + (p2 * (1 - p2)) / k);
  return { n1: (a + b) ** 2 / (p2 - p1) ** 2, k };
}

export function holdoutSize(i: HoldoutSizeInput) {
  const { n1, k } = exactHoldoutSize(i);
  const holdout = Math.ceil(n1 - 1e-9);
  const treated = Math.ceil(k * n1 - 1e-9);
  return {
    treatedRate: i.baselineRate * (1 + i.relativeLift),
    absoluteLift: i.baselineRate * i.relativeLift,
    holdoutSize: holdout,
    treatedSize: treated,
    totalSize: holdout + treated,
  };
}

/**
 * The smallest relative lift a test of `audienceSize` units can detect: the lift at which the
 * required total equals the audience (bisection; the required total falls as the lift grows).
 * Null when no lift up to a treated rate of 99.99% is detectable.
 */
export function minimumDetectableLift(i: Omit<HoldoutSizeInput, "relativeLift"> & { audienceSize: number }) {
  const total = (lift: number) => {
    const { n1, k } = exactHoldoutSize({ ...i, relativeLift: lift });
    return n1 * (1 + k);
  };
  let hi = Math.min(1e4, 0.9999 / i.baselineRate - 1);
  if (total(hi) > i.audienceSize) return null;
  let lo = 0;
  for (let n = 0; n < 200 && hi - lo > 1e-10; n++) {
    const mid = (lo + hi) / 2;
    if (total(mid) > i.audienceSize) lo = mid;
    else hi = mid;
  }
  const holdout = Math.floor(i.audienceSize * i.holdoutShare);
  return {
    relativeLift: hi,
    absoluteLift: i.baselineRate * hi,
    treatedRate: i.baselineRate * (1 + hi),
    holdoutSize: holdout,
    treatedSize: i.audienceSize - holdout,
  };
}

/** The response rate at which mail pays for itself, and the ROI at an expected response rate. */
export function breakEven(i: {
  costPerPieceCents: number;
  dealValueCents: number;
  winRate: number;
  grossMargin: number;
  responseRate?: number;
}) {
  const valuePerResponseCents = i.dealValueCents * i.winRate * i.grossMargin;
  const breakEvenResponseRate = i.costPerPieceCents / valuePerResponseCents;
  const expected =
    i.responseRate === undefined
      ? null
      : {
          valuePerPieceCents: i.responseRate * valuePerResponseCents,
          roi: (i.responseRate * valuePerResponseCents - i.costPerPieceCents) / i.costPerPieceCents,
          profitPer1000PiecesCents: 1000 * (i.responseRate * valuePerResponseCents - i.costPerPieceCents),
        };
  return {
    valuePerResponseCents,
    breakEvenResponseRate,
    piecesPerWin: 1 / (breakEvenResponseRate * i.winRate),
    ...(expected ? { expected } : {}),
  };
}

/** How long a test must run: weeks to enrol the required sample at a weekly volume, plus the attribution window. */
export function testDuration(i: HoldoutSizeInput & { weeklyVolume: number; attributionWindowDays: number }) {
  const sizes = holdoutSize(i);
  const weeksToEnroll = Math.ceil(sizes.totalSize / i.weeklyVolume);
  return { ...sizes, weeksToEnroll, totalDays: weeksToEnroll * 7 + i.attributionWindowDays };
}
