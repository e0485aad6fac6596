import { chiSquareUpper, phi, z } from "@/server/records/calculators/distributions";

/**
 * Lift statistics for a treatment arm against a holdout arm, per unit (account). 95% intervals.
 * Absolute lift: Newcombe's hybrid score interval (method 10), sound for small counts. Relative
 * lift: the Katz log interval of the risk ratio. p-value: two-sided two-proportion z-test with
 * pooled variance. Money per account: Welch's difference of means with a normal interval.
 */
const Z95 = z(0.975);

/** Wilson score interval of x successes in n. */
export function wilson(x: number, n: number): [number, number] {
  if (n === 0) return [0, 1];
  const p = x / n;
  const d = 1 + (Z95 * Z95) / n;
  const centre = (p + (Z95 * Z95) / (2 * n)) / d;
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + (Z95 * Z95) / (4 * n * n))) / d;
  return [centre - half, centre + half];
}

export interface ProportionComparison {
  treatedRate: number;
  holdoutRate: number;
  absoluteLift: number;
  absoluteLiftCi: [number, number];
  /** Null when either arm has no conversions (the ratio is undefined). */
  relativeLift: number | null;
  relativeLiftCi: [number, number] | null;
  pValue: number;
}

export function compareProportions(xt: number, nt: number, xh: number, nh: number): ProportionComparison {
  const pt = nt ? xt / nt : 0;
  const ph = nh ? xh / nh : 0;
  const [lt, ut] = wilson(xt, nt);
  const [lh, uh] = wilson(xh, nh);
  const d = pt - ph;
  const ci: [number, number] = [
    d - Math.sqrt((pt - lt) ** 2 + (uh - ph) ** 2),
    d + Math.sqrt((ut - pt) ** 2 + (ph - lh) ** 2),
  ];
  let relativeLift: number | null = null;
  let relativeLiftCi: [number, number] | null = null;
  if (xt > 0 && xh > 0) {
    const rr = pt / ph;
    const se = Math.sqrt(1 / xt - 1 / nt + 1 / xh - 1 / nh);
    relativeLift = rr - 1;
    relativeLiftCi = [Math.exp(Math.log(rr) - Z95 * se) - 1, Math.exp(Math.log(rr) + Z95 * se) - 1];
  }
  const pooled = nt + nh ? (xt + xh) / (nt + nh) : 0;
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / Math.max(nt, 1) + 1 / Math.max(nh, 1)));
  const pValue = se > 0 && nt > 0 && nh > 0 ? 2 * (1 - phi(Math.abs(d / se))) : 1;
  return {
    treatedRate: pt,
    holdoutRate: ph,
    absoluteLift: d,
    absoluteLiftCi: ci,
    relativeLift,
    relativeLiftCi,
    pValue,
  };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const variance = (xs: number[]) => {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1);
};

/**
 * Incremental money of the treated arm: (mean per treated account - mean per held-out account) x
 * treated accounts, with a 95% interval. Inputs are per-account totals, zeros included.
 */
export function incrementalMoney(treated: number[], holdout: number[]) {
  const diff = mean(treated) - mean(holdout);
  const se = Math.sqrt(
    variance(treated) / Math.max(treated.length, 1) + variance(holdout) / Math.max(holdout.length, 1),
  );
  const n = treated.length;
  const totalCi = [(diff - Z95 * se) * n, (diff + Z95 * se) * n] as [number, number];
  return {
    meanTreated: mean(treated),
    meanHoldout: mean(holdout),
    perAccount: diff,
    perAccountCi: [diff - Z95 * se, diff + Z95 * se] as [number, number],
    total: diff * n,
    totalCi,
    /** False when the interval includes zero: the total is then no gain (or loss) anyone can claim. */
    significant: totalCi[0] > 0 || totalCi[1] < 0,
  };
}

/**
 * Sample-ratio mismatch: a chi-square goodness-of-fit test of the arm sizes against the planned
 * holdout share. A tiny p-value means the assignment or the data is broken, not that mail works.
 */
export function sampleRatioMismatch(holdout: number, treated: number, holdoutShare: number) {
  const total = holdout + treated;
  if (total === 0) return { chiSquare: 0, pValue: 1, mismatch: false };
  const eh = total * holdoutShare;
  const et = total * (1 - holdoutShare);
  // A plan with no holdout (or only holdout) expects one arm empty: any unit in it is a mismatch.
  if (eh === 0 || et === 0) {
    const mismatch = (eh === 0 && holdout > 0) || (et === 0 && treated > 0);
    return { chiSquare: 0, pValue: mismatch ? 0 : 1, mismatch };
  }
  const chiSquare = (holdout - eh) ** 2 / eh + (treated - et) ** 2 / et;
  const pValue = chiSquareUpper(chiSquare, 1);
  return { chiSquare, pValue, mismatch: pValue < 0.001 };
}
