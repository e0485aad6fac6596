/**
 * Always-valid lift: a 95% confidence sequence for the absolute lift (treated rate - held-out rate)
 * and its always-valid p-value, which stay valid however often and whenever they are read while a
 * campaign runs. A fixed-horizon interval read at every look and acted on at the first one that
 * excludes zero declares a lift far more often than 5% of the time when mail does nothing; this
 * one does not (always-valid.test.ts simulates both).
 *
 * Method: the normal-mixture sequential probability ratio test (mSPRT) of Johari, Koomen, Pekelis
 * and Walsh, "Always Valid Inference: Continuous Monitoring of A/B Tests", Operations Research
 * 70(3), 2022, section 4 (two-sample, normal approximation), which is the normal-mixture boundary
 * of Howard, Ramdas, McAuliffe and Sekhon, "Time-uniform, nonparametric, nonasymptotic confidence
 * sequences", Annals of Statistics 49(2), 2021, section 3.5. With the estimate d of the lift, its
 * variance V and a mixing distribution N(0, tau^2) over the lift:
 *
 *   Lambda = sqrt(V / (V + tau^2)) * exp(tau^2 d^2 / (2 V (V + tau^2)))
 *   p      = min(1, 1 / Lambda)                      (Ville's inequality: P(ever p <= alpha) <= alpha)
 *   d +/- sqrt(V (V + tau^2) / tau^2 * (2 ln(1/alpha) + ln((V + tau^2) / V)))
 *
 * the interval being exactly the lifts a test at this look would not reject. The variance is the
 * unpooled binomial one with each rate smoothed as (x + 1) / (n + 2), so an arm with no conversions
 * still has a variance (and the interval a width) rather than a false certainty.
 */
const ALPHA = 0.05;
/**
 * The mixing scale tau, fixed before any data (a scale chosen from the data would void the
 * guarantee): 10 percentage points. The interval is narrowest when the lift's standard error is
 * near tau / 2.5 and widens slowly either side: its half-width is 3.0 to 3.5 standard errors for
 * standard errors from 0.5 to 8 points (a campaign of thousands of accounts down to a few dozen),
 * against 1.96 for the fixed-horizon interval.
 */
export const MIXING_SCALE = 0.1;

export interface AlwaysValidLift {
  /** 95% confidence sequence for treatedRate - holdoutRate, clipped to [-1, 1]. */
  absoluteLiftCi: [number, number];
  /** Always-valid p-value of no lift: below 0.05 at any look happens at most 5% of the time without a lift. */
  pValue: number;
}

export function alwaysValidLift(xt: number, nt: number, xh: number, nh: number): AlwaysValidLift {
  if (nt === 0 || nh === 0) return { absoluteLiftCi: [-1, 1], pValue: 1 };
  const d = xt / nt - xh / nh;
  const st = (xt + 1) / (nt + 2);
  const sh = (xh + 1) / (nh + 2);
  const v = (st * (1 - st)) / nt + (sh * (1 - sh)) / nh;
  const t2 = MIXING_SCALE * MIXING_SCALE;
  const logLambda = 0.5 * Math.log(v / (v + t2)) + (t2 * d * d) / (2 * v * (v + t2));
  const half = Math.sqrt(((v * (v + t2)) / t2) * (2 * Math.log(1 / ALPHA) + Math.log((v + t2) / v)));
  return {
    absoluteLiftCi: [Math.max(-1, d - half), Math.min(1, d + half)],
    pValue: Math.min(1, Math.exp(-logLambda)),
  };
}

export const ALWAYS_VALID_VERDICTS = ["lift", "negative", "undecided", "not_enough_data", "not_measurable"] as const;
export type AlwaysValidVerdict = (typeof ALWAYS_VALID_VERDICTS)[number];

export interface AlwaysValidResult extends AlwaysValidLift {
  verdict: AlwaysValidVerdict;
  explanation: string;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const pts = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}`;

/**
 * The verdict safe to read at any time: a lift (or a loss) only once the whole confidence sequence
 * is above (or below) zero. `tooSmall` is the same floor of accounts and conversions as the
 * fixed-horizon verdict's; it only ever withholds a verdict, so the guarantee still holds.
 */
export function judgeAlwaysValid(
  xt: number,
  nt: number,
  xh: number,
  nh: number,
  c: { holdoutObservable: boolean; tooSmall: boolean },
): AlwaysValidResult {
  const av = alwaysValidLift(xt, nt, xh, nh);
  const [lo, hi] = av.absoluteLiftCi;
  const range = `${pts(lo)} to ${pts(hi)} pts`;
  if (!c.holdoutObservable) {
    return {
      ...av,
      verdict: "not_measurable",
      explanation: "Held-out accounts are not observed for this kind, so there is no lift to bound.",
    };
  }
  if (c.tooSmall) {
    return {
      ...av,
      verdict: "not_enough_data",
      explanation: `Too few accounts or conversions to read yet; the lift is somewhere in ${range}.`,
    };
  }
  if (lo > 0) {
    return {
      ...av,
      verdict: "lift",
      explanation: `Mail lifted this outcome (${pct(xh / nh)} to ${pct(xt / nt)}): the lift is in ${range} however often these results have been read.`,
    };
  }
  if (hi < 0) {
    return {
      ...av,
      verdict: "negative",
      explanation: `Treated accounts converted less (${pct(xt / nt)} against ${pct(xh / nh)}): the lift is in ${range} however often these results have been read.`,
    };
  }
  return {
    ...av,
    verdict: "undecided",
    explanation: `Not decided yet: the lift is somewhere in ${range}, which includes no lift. Keep the campaign running; reading again does not raise the risk of a false verdict.`,
  };
}
