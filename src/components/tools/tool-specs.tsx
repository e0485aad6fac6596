import { breakEven, holdoutSize, minimumDetectableLift, testDuration } from "@/server/records/calculators/formulas";

/** A calculator page: its fields (rates entered as percentages), its answer in words, and a chart. */
export interface FieldSpec {
  name: string;
  label: string;
  help: string;
  /** Shown as a percentage, sent as a fraction. */
  percent?: boolean;
  /** Shown in dollars, sent in cents. */
  dollars?: boolean;
  min: number;
  max: number;
  initial: number;
  optional?: boolean;
  step?: number;
}

export interface ChartSpec {
  data: Record<string, number>[];
  x: string;
  series: { name: string; color: string }[];
  xLabel: string;
  yLabel: string;
}

export interface ToolSpec {
  slug: string;
  title: string;
  intro: string;
  fields: FieldSpec[];
  answer: (result: Record<string, unknown>) => string;
  chart: (v: Record<string, number>) => ChartSpec;
}

const pct = (x: number, digits = 1) => `${(x * 100).toFixed(digits)}%`;
const int = (x: number) => Math.round(x).toLocaleString("en-US");
const usd = (cents: number) => (cents / 100).toLocaleString("en-US", { style: "currency", currency: "USD" });
const base = { alpha: 0.05, power: 0.8 };
const alphaField: FieldSpec = {
  name: "alpha",
  label: "Significance level",
  help: "Two-sided; 5% is customary.",
  percent: true,
  min: 0.1,
  max: 20,
  initial: 5,
};
const powerField: FieldSpec = {
  name: "power",
  label: "Power",
  help: "Chance of detecting the lift if it is real.",
  percent: true,
  min: 50,
  max: 99,
  initial: 80,
};

export const TOOLS: ToolSpec[] = [
  {
    slug: "holdout-size",
    title: "Holdout size",
    intro: "How many accounts each arm needs to show a lift over your baseline conversion rate.",
    fields: [
      {
        name: "baselineRate",
        label: "Baseline conversion rate",
        help: "The rate the holdout arm converts at.",
        percent: true,
        min: 0.01,
        max: 90,
        initial: 7,
        step: 0.5,
      },
      {
        name: "relativeLift",
        label: "Lift to detect",
        help: "Relative: +20% turns 7% into 8.4%.",
        percent: true,
        min: 1,
        max: 1000,
        initial: 20,
      },
      {
        name: "holdoutShare",
        label: "Holdout share",
        help: "Share of accounts held out.",
        percent: true,
        min: 5,
        max: 95,
        initial: 50,
      },
      alphaField,
      powerField,
    ],
    answer: (r) =>
      `Hold out ${int(r.holdoutSize as number)} accounts and mail ${int(r.treatedSize as number)} (${int(r.totalSize as number)} in all) to detect a rise from ${pct((r.inputs as { baselineRate: number }).baselineRate)} to ${pct(r.treatedRate as number, 2)}.`,
    chart: (v) => ({
      data: [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1]
        .filter((l) => v.baselineRate * (1 + l) < 1)
        .map((l) => ({
          lift: Math.round(l * 100),
          "Accounts needed": holdoutSize({ ...base, ...v, relativeLift: l } as never).totalSize,
        })),
      x: "lift",
      series: [{ name: "Accounts needed", color: "indigo.6" }],
      xLabel: "Lift to detect (%)",
      yLabel: "Accounts, both arms",
    }),
  },
  {
    slug: "minimum-detectable-lift",
    title: "Minimum detectable lift",
    intro: "The smallest lift an audience of a given size can reveal against a holdout.",
    fields: [
      {
        name: "baselineRate",
        label: "Baseline conversion rate",
        help: "The rate the holdout arm converts at.",
        percent: true,
        min: 0.01,
        max: 90,
        initial: 5,
        step: 0.5,
      },
      {
        name: "audienceSize",
        label: "Accounts in the test",
        help: "Both arms together.",
        min: 20,
        max: 100_000_000,
        initial: 10_000,
      },
      {
        name: "holdoutShare",
        label: "Holdout share",
        help: "Share of accounts held out.",
        percent: true,
        min: 5,
        max: 95,
        initial: 20,
      },
      alphaField,
      powerField,
    ],
    answer: (r) =>
      r.detectable
        ? `With ${int((r.inputs as { audienceSize: number }).audienceSize)} accounts, the smallest lift you can detect is ${pct(r.relativeLift as number)} (from ${pct((r.inputs as { baselineRate: number }).baselineRate)} to ${pct(r.treatedRate as number, 2)}).`
        : "This audience is too small to detect any lift at this baseline: add accounts or raise the holdout share towards half.",
    chart: (v) => ({
      data: [0.25, 0.5, 1, 2, 4, 8]
        .map((m) => Math.max(20, Math.round(v.audienceSize * m)))
        .map((n) => ({ n, l: minimumDetectableLift({ ...base, ...v, audienceSize: n } as never)?.relativeLift }))
        .filter((p) => p.l !== undefined)
        .map((p) => ({ accounts: p.n, "Detectable lift (%)": Math.round(p.l! * 1000) / 10 })),
      x: "accounts",
      series: [{ name: "Detectable lift (%)", color: "grape.6" }],
      xLabel: "Accounts in the test",
      yLabel: "Smallest detectable lift (%)",
    }),
  },
  {
    slug: "break-even",
    title: "Break-even response rate",
    intro: "The response rate at which a piece pays for itself, and what your expected rate returns.",
    fields: [
      {
        name: "costPerPieceCents",
        label: "Cost per piece",
        help: "Print, postage and any gift.",
        dollars: true,
        min: 0.01,
        max: 10_000,
        initial: 3,
      },
      {
        name: "dealValueCents",
        label: "Deal value",
        help: "Revenue of a won deal.",
        dollars: true,
        min: 0.01,
        max: 1_000_000_000,
        initial: 20_000,
      },
      {
        name: "winRate",
        label: "Win rate of responses",
        help: "Share of responses that become won deals.",
        percent: true,
        min: 0.01,
        max: 100,
        initial: 10,
      },
      {
        name: "grossMargin",
        label: "Gross margin",
        help: "100% compares cost with revenue.",
        percent: true,
        min: 1,
        max: 100,
        initial: 100,
      },
      {
        name: "responseRate",
        label: "Expected response rate",
        help: "Optional: for the ROI.",
        percent: true,
        min: 0,
        max: 100,
        initial: 1,
        optional: true,
      },
    ],
    answer: (r) => {
      const e = r.expected as { roi: number; profitPer1000PiecesCents: number } | undefined;
      const be = `A piece pays for itself at a ${pct(r.breakEvenResponseRate as number, 3)} response rate (one won deal per ${int(r.piecesPerWin as number)} pieces).`;
      return e
        ? `${be} At your expected rate the ROI is ${pct(e.roi, 0)}: ${usd(e.profitPer1000PiecesCents)} per 1,000 pieces.`
        : be;
    },
    chart: (v) => {
      const r = breakEven(v as never);
      return {
        data: [0, 0.5, 1, 1.5, 2, 3, 4].map((m) => ({
          rate: Math.round(m * r.breakEvenResponseRate * 100_000) / 1000,
          "ROI (%)": Math.round((m - 1) * 100),
        })),
        x: "rate",
        series: [{ name: "ROI (%)", color: "teal.6" }],
        xLabel: "Response rate (%)",
        yLabel: "ROI (%)",
      };
    },
  },
  {
    slug: "test-duration",
    title: "Test duration",
    intro: "How long a holdout test must run at your send volume, including the attribution window.",
    fields: [
      {
        name: "baselineRate",
        label: "Baseline conversion rate",
        help: "The rate the holdout arm converts at.",
        percent: true,
        min: 0.01,
        max: 90,
        initial: 7,
        step: 0.5,
      },
      {
        name: "relativeLift",
        label: "Lift to detect",
        help: "Relative lift.",
        percent: true,
        min: 1,
        max: 1000,
        initial: 20,
      },
      {
        name: "weeklyVolume",
        label: "Accounts entering per week",
        help: "Both arms together.",
        min: 1,
        max: 100_000_000,
        initial: 1000,
      },
      {
        name: "attributionWindowDays",
        label: "Attribution window (days)",
        help: "Outcomes count this long after mailing.",
        min: 0,
        max: 365,
        initial: 30,
      },
      {
        name: "holdoutShare",
        label: "Holdout share",
        help: "Share of accounts held out.",
        percent: true,
        min: 5,
        max: 95,
        initial: 20,
      },
      alphaField,
      powerField,
    ],
    answer: (r) =>
      `Enrol for ${int(r.weeksToEnroll as number)} weeks (${int(r.totalSize as number)} accounts), then wait out the attribution window: ${int(r.totalDays as number)} days in all.`,
    chart: (v) => ({
      data: [0.25, 0.5, 1, 2, 4]
        .map((m) => Math.max(1, Math.round(v.weeklyVolume * m)))
        .map((w) => ({ volume: w, Days: testDuration({ ...base, ...v, weeklyVolume: w } as never).totalDays })),
      x: "volume",
      series: [{ name: "Days", color: "orange.6" }],
      xLabel: "Accounts entering per week",
      yLabel: "Days to a result",
    }),
  },
];

export const toolBySlug = (slug: string) => TOOLS.find((t) => t.slug === slug);
