import chisquareCdf from "@stdlib/stats-base-dists-chisquare-cdf";
import normalCdf from "@stdlib/stats-base-dists-normal-cdf";
import normalQuantile from "@stdlib/stats-base-dists-normal-quantile";

/** The standard normal quantile: z(0.975) = 1.959964… (stdlib, to double precision). */
export const z = (p: number): number => normalQuantile(p, 0, 1);
/** The standard normal CDF. */
export const phi = (x: number): number => normalCdf(x, 0, 1);
/** Upper tail of the chi-square distribution with k degrees of freedom. */
export const chiSquareUpper = (x: number, k: number): number => 1 - chisquareCdf(x, k);
