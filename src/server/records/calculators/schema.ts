import { z } from "zod";

/**
 * Calculator parameters with their bounds and defaults, each failure one sentence naming the
 * parameter and its bound. These schemas are the documentation (openapi.json reads them).
 */
function num(name: string, o: { min: number; max: number; int?: boolean; def?: number; what: string }) {
  const bound = `${o.int ? "a whole number" : "a number"} from ${o.min} to ${o.max}`;
  let s = z.number({
    error: (iss) =>
      iss.input === undefined ? `${name} is required: ${bound} (${o.what}).` : `${name} must be ${bound} (${o.what}).`,
  });
  if (o.int) s = s.int({ error: `${name} must be ${bound} (${o.what}).` });
  s = s
    .min(o.min, { error: `${name} must be at least ${o.min} (${o.what}).` })
    .max(o.max, { error: `${name} must be at most ${o.max} (${o.what}).` });
  const described = s.describe(
    `${o.what[0].toUpperCase()}${o.what.slice(1)}. ${bound[0].toUpperCase()}${bound.slice(1)}${o.def !== undefined ? `; default ${o.def}` : ""}.`,
  );
  return o.def === undefined ? described : described.default(o.def);
}

const alpha = num("alpha", { min: 0.001, max: 0.2, def: 0.05, what: "two-sided significance level" });
const power = num("power", { min: 0.5, max: 0.99, def: 0.8, what: "probability of detecting the lift if it is real" });
const baselineRate = num("baselineRate", {
  min: 0.0001,
  max: 0.9,
  what: "conversion rate of the holdout arm, as a fraction: 7% is 0.07",
});
const relativeLift = num("relativeLift", {
  min: 0.01,
  max: 10,
  what: "lift of the treated arm over the baseline, as a fraction: +20% is 0.2",
});
const holdoutShare = (def: number) =>
  num("holdoutShare", { min: 0.05, max: 0.95, def, what: "share of the audience held out" });

const treatedRateBelowOne = (v: { baselineRate: number; relativeLift: number }) =>
  v.baselineRate * (1 + v.relativeLift) < 1;
const treatedRateIssue = {
  error: "baselineRate × (1 + relativeLift) must stay below 1: the treated arm's rate cannot reach 100%.",
  path: ["relativeLift"],
};

export const ZHoldoutSizeInput = z
  .strictObject({ baselineRate, relativeLift, alpha, power, holdoutShare: holdoutShare(0.5) })
  .refine(treatedRateBelowOne, treatedRateIssue);
export const ZMinimumDetectableLiftInput = z.strictObject({
  baselineRate,
  audienceSize: num("audienceSize", {
    min: 20,
    max: 100_000_000,
    int: true,
    what: "units in the test (accounts for account-level holdouts), both arms together",
  }),
  alpha,
  power,
  holdoutShare: holdoutShare(0.2),
});
export const ZBreakEvenInput = z.strictObject({
  costPerPieceCents: num("costPerPieceCents", {
    min: 1,
    max: 1_000_000,
    int: true,
    what: "all-in cost of one piece in cents",
  }),
  dealValueCents: num("dealValueCents", {
    min: 1,
    max: 100_000_000_000,
    int: true,
    what: "value of a won deal in cents",
  }),
  winRate: num("winRate", { min: 0.0001, max: 1, what: "share of responses that become won deals" }),
  grossMargin: num("grossMargin", {
    min: 0.01,
    max: 1,
    def: 1,
    what: "gross margin on a deal; 1 compares mail cost with revenue",
  }),
  responseRate: num("responseRate", { min: 0, max: 1, what: "expected response rate, for the ROI" }).optional(),
});
export const ZTestDurationInput = z
  .strictObject({
    baselineRate,
    relativeLift,
    weeklyVolume: num("weeklyVolume", {
      min: 1,
      max: 100_000_000,
      int: true,
      what: "units entering the test per week, both arms together",
    }),
    attributionWindowDays: num("attributionWindowDays", {
      min: 0,
      max: 365,
      int: true,
      def: 30,
      what: "days an outcome is counted after the piece is mailed",
    }),
    alpha,
    power,
    holdoutShare: holdoutShare(0.2),
  })
  .refine(treatedRateBelowOne, treatedRateIssue);

const rate = z.number().describe("A fraction.");
const count = z.number().int();
export const ZHoldoutSizeOutput = z.object({
  inputs: z
    .object({
      baselineRate: z.number(),
      relativeLift: z.number(),
      alpha: z.number(),
      power: z.number(),
      holdoutShare: z.number(),
    })
    .describe("Every input, with the defaults applied."),
  treatedRate: rate,
  absoluteLift: rate,
  holdoutSize: count.describe("Units needed in the holdout arm."),
  treatedSize: count.describe("Units needed in the treated arm."),
  totalSize: count,
  sided: z.literal("two-sided"),
  formula: z.string().describe("The formula used, by name."),
});
export const ZMinimumDetectableLiftOutput = z.object({
  inputs: z.object({
    baselineRate: z.number(),
    audienceSize: z.number(),
    alpha: z.number(),
    power: z.number(),
    holdoutShare: z.number(),
  }),
  detectable: z.boolean().describe("False when no lift is detectable with this audience."),
  relativeLift: rate.nullable(),
  absoluteLift: rate.nullable(),
  treatedRate: rate.nullable(),
  holdoutSize: count,
  treatedSize: count,
  formula: z.string(),
});
export const ZBreakEvenOutput = z.object({
  inputs: z.object({
    costPerPieceCents: z.number(),
    dealValueCents: z.number(),
    winRate: z.number(),
    grossMargin: z.number(),
    responseRate: z.number().optional(),
  }),
  valuePerResponseCents: z.number().describe("dealValueCents × winRate × grossMargin."),
  breakEvenResponseRate: rate.describe(
    "costPerPieceCents / valuePerResponseCents: the response rate at which mail pays for itself.",
  ),
  piecesPerWin: z.number().describe("Pieces mailed per won deal at the break-even response rate."),
  expected: z
    .object({
      valuePerPieceCents: z.number(),
      roi: z.number().describe("(value per piece - cost) / cost."),
      profitPer1000PiecesCents: z.number(),
    })
    .optional()
    .describe("Present when responseRate is given."),
});
export const ZTestDurationOutput = ZHoldoutSizeOutput.extend({
  inputs: z.object({
    baselineRate: z.number(),
    relativeLift: z.number(),
    weeklyVolume: z.number(),
    attributionWindowDays: z.number(),
    alpha: z.number(),
    power: z.number(),
    holdoutShare: z.number(),
  }),
  weeksToEnroll: count,
  totalDays: count.describe("Weeks to enrol × 7 + the attribution window."),
});
