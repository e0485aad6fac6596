/**
 * What the mail cost against what it made: the incremental count of an outcome kind (the absolute
 * lift times the mailed accounts, with the lift's 95% interval scaled the same way), the spend per
 * incremental outcome, and for money kinds the incremental money per dollar spent.
 */
export interface KindMoney {
  /** Outcomes (converted accounts) the mail added: absoluteLift x mailed accounts. */
  incremental: number;
  incrementalCi: [number, number];
  /** spendCents / incremental, in cents; null where the lift is not measurable (costPerIncrementalReason says why). */
  costPerIncrementalCents: number | null;
  /** The cost's 95% interval: [spend / high, spend / low]; null at either end the interval cannot bound. */
  costPerIncrementalCiCents: [number | null, number | null] | null;
  costPerIncrementalReason: string | null;
  /** Money kinds: incremental cents per cent spent (1.5 is 1.50 USD per dollar); null without spend or without money. */
  incrementalPerDollar: number | null;
  incrementalPerDollarCi: [number, number] | null;
}

export function kindMoney(
  k: {
    /** The fixed-horizon verdict (results.ts): a cost is given only for "lift". */
    verdict: string;
    explanation: string;
    absoluteLift: number;
    absoluteLiftCi: [number, number];
    treated: { accounts: number };
    money: { total: number; totalCi: [number, number] } | null;
  },
  spendCents: number,
): KindMoney {
  const n = k.treated.accounts;
  const incremental = k.absoluteLift * n;
  const incrementalCi: [number, number] = [k.absoluteLiftCi[0] * n, k.absoluteLiftCi[1] * n];
  let reason: string | null = null;
  if (spendCents <= 0) reason = "Nothing has been spent on mailed pieces yet.";
  else if (k.verdict !== "lift")
    reason =
      k.verdict === "not_measurable"
        ? `Lift is not measurable: ${k.explanation}`
        : k.verdict === "not_enough_data"
          ? `Lift is not measurable yet: ${k.explanation}`
          : `No incremental outcomes can be claimed: ${k.explanation}`;
  const measurable = reason === null && incremental > 0;
  const perDollar = spendCents > 0 && k.money ? k.money.total / spendCents : null;
  return {
    incremental,
    incrementalCi,
    costPerIncrementalCents: measurable ? Math.round(spendCents / incremental) : null,
    costPerIncrementalCiCents: measurable
      ? [
          incrementalCi[1] > 0 ? Math.round(spendCents / incrementalCi[1]) : null,
          incrementalCi[0] > 0 ? Math.round(spendCents / incrementalCi[0]) : null,
        ]
      : null,
    costPerIncrementalReason: reason,
    incrementalPerDollar: perDollar,
    incrementalPerDollarCi:
      perDollar !== null && k.money ? [k.money.totalCi[0] / spendCents, k.money.totalCi[1] / spendCents] : null,
  };
}
