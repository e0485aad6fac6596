import { z } from "zod";
import { HOLDOUT_FORMULA, holdoutSize } from "@/server/records/calculators/formulas";
import { ZHoldoutSizeInput } from "@/server/records/calculators/schema";
import { requireCampaign } from "@/server/records/campaign-records/lookup";
import { AppError } from "@/server/ground/errors";
import {
  ATTRIBUTION_WINDOW_DAYS,
  getCampaignResults,
  RATE_ACTION_KINDS,
  type KindResult,
  type TCampaignResults,
} from "@/server/programme/holdouts/results";
import { ALWAYS_VALID_VERDICTS } from "@/server/programme/holdouts/always-valid";
import type { KindMoney } from "@/server/programme/holdouts/money";
import { getProgrammeResults } from "@/server/programme/holdouts/programme-results";
import { RESPONSE_MODES } from "@/server/programme/responses/page-settings";
import type { TPageActionKind } from "@/server/programme/responses/kinds";
import { defineTool } from "../tool";

const KINDS = [
  "reply",
  "meeting_booked",
  "opportunity_created",
  "signup",
  "trial_started",
  "purchase",
  "pipeline_dollars",
  "closed_won",
] as const;
const VERDICTS = ["lift", "negative", "no_detectable_lift", "not_enough_data", "not_measurable"] as const;
const ZInterval = z.tuple([z.number(), z.number()]).describe("95% interval [low, high].");
const cents = (x: number) => Math.round(x);

const ZCostFields = {
  incremental: z.number().describe("Converted accounts the mail added: absoluteLift x treated accounts."),
  incrementalCi: ZInterval,
  costPerIncrementalCents: z
    .number()
    .int()
    .nullable()
    .describe("spendCents / incremental; null where lift is not measurable (see costPerIncrementalReason)."),
  costPerIncrementalCiCents: z.tuple([z.number().int().nullable(), z.number().int().nullable()]).nullable(),
  costPerIncrementalReason: z.string().nullable(),
  incrementalPerDollar: z
    .number()
    .nullable()
    .describe("Money kinds: incremental money per dollar spent (1.5 = 1.50 USD per 1 USD)."),
  incrementalPerDollarCi: ZInterval.nullable(),
};
const costView = (k: KindMoney) => ({
  incremental: k.incremental,
  incrementalCi: k.incrementalCi,
  costPerIncrementalCents: k.costPerIncrementalCents,
  costPerIncrementalCiCents: k.costPerIncrementalCiCents,
  costPerIncrementalReason: k.costPerIncrementalReason,
  incrementalPerDollar: k.incrementalPerDollar,
  incrementalPerDollarCi: k.incrementalPerDollarCi,
});

const ZKindResult = z.object({
  kind: z.enum(KINDS),
  treated: z.object({ accounts: z.number().int(), converted: z.number().int() }),
  holdout: z.object({ accounts: z.number().int(), converted: z.number().int() }),
  treatedRate: z.number().describe("Fraction of treated accounts that converted."),
  holdoutRate: z.number().describe("Fraction of held-out accounts that converted."),
  absoluteLift: z.number().describe("treatedRate - holdoutRate, as a fraction."),
  absoluteLiftCi: ZInterval,
  relativeLift: z
    .number()
    .nullable()
    .describe("treatedRate / holdoutRate - 1, as a fraction; null when an arm has no conversions."),
  relativeLiftCi: ZInterval.nullable(),
  pValue: z.number(),
  holdoutObservable: z
    .boolean()
    .describe(
      "False when only response-link reports exist for this kind (held-out accounts never get a link), so lift cannot be measured.",
    ),
  requiredAccounts: z
    .object({ holdout: z.number().int(), treated: z.number().int(), plannedLift: z.number() })
    .nullable()
    .describe("Accounts each arm needs to detect plannedLift (a fraction) at this baseline."),
  money: z
    .object({
      meanTreatedCents: z.number().int().describe("Mean per treated account, in cents."),
      meanHoldoutCents: z.number().int().describe("Mean per held-out account, in cents."),
      incrementalPerAccountCents: z.number().int(),
      incrementalPerAccountCiCents: ZInterval,
      incrementalTotalCents: z.number().int().describe("Incremental money of the treated arm, in cents (not dollars)."),
      incrementalTotalCiCents: ZInterval,
      significant: z.boolean().describe("False when the interval includes zero: do not present the total as a gain."),
    })
    .nullable()
    .describe("For money kinds (purchase, pipeline_dollars, closed_won): amounts in integer cents."),
  verdict: z
    .enum(VERDICTS)
    .describe(
      "Fixed-horizon verdict: sound when read once, at a time chosen in advance (such as after the outcome window); read again and again while the campaign runs, it declares a lift that is not there far more often than 5% of the time (use alwaysValid then).",
    ),
  explanation: z.string(),
  alwaysValid: z
    .object({
      absoluteLiftCi: ZInterval.describe(
        "95% confidence sequence for absoluteLift: holds at every read, however often results are read while the campaign runs.",
      ),
      pValue: z.number().describe("Always-valid p-value of no lift (mixture sequential probability ratio test)."),
      verdict: z
        .enum(ALWAYS_VALID_VERDICTS)
        .describe(
          "lift or negative once the whole confidence sequence is above or below zero; undecided while it includes zero.",
        ),
      explanation: z.string(),
    })
    .describe(
      "Lift safe to read at any time: use this verdict for a running campaign; the fixed-horizon one above is inflated by repeated reads.",
    ),
  ...ZCostFields,
  sources: z
    .object({
      crm: z
        .number()
        .int()
        .describe(
          "Outcomes counted here that came from the CRM (synced by a CRM connection, or imported as a CRM export).",
        ),
      crmSynced: z
        .number()
        .int()
        .describe(
          "Of those, synced by a CRM connection (HubSpot deals, Salesforce opportunities; crm_connections_list).",
        ),
      csv: z.number().int().describe("Outcomes imported from a CSV file."),
      reported: z.number().int().describe("Conversions reported against a printed piece's sid through the REST API."),
      observed: z
        .number()
        .int()
        .describe("Replies sent on a hosted response page, observed by the service (responses_list)."),
    })
    .describe("Where this kind's counted outcomes came from."),
});

const ZResults = z.object({
  simulatedPieces: z
    .number()
    .int()
    .describe(
      "Pieces the sandbox or a vendor's test key fulfilled: they reached nobody. When above 0, say the results are a rehearsal, not mail to real people.",
    ),
  campaign: z.object({
    id: z.string(),
    name: z.string(),
    status: z.enum(["live", "paused", "ended"]),
    holdoutShare: z.number(),
    wentLiveAt: z.string().nullable(),
    endedAt: z.string().nullable(),
    responseMode: z.enum(RESPONSE_MODES).describe("What the printed link opens: redirect, landing_page or gift_claim."),
  }),
  attributionWindowDays: z.number().int(),
  spendCents: z.number().int().describe("Charged for the campaign's mailed pieces, in cents."),
  arms: z
    .object({ treatment: z.number().int(), holdout: z.number().int() })
    .describe("Accounts per arm that count (treated: mailed; held out: recorded)."),
  sampleRatio: z.object({
    chiSquare: z.number(),
    pValue: z.number(),
    mismatch: z
      .boolean()
      .describe("True when the arms are far from the planned share: the data or assignment is broken."),
  }),
  responses: z
    .object({
      scans: z.number().int().describe("QR code scans observed by the service."),
      clicks: z.number().int().describe("Typed or tapped printed links observed by the service."),
      respondingAccounts: z
        .number()
        .int()
        .describe(
          "Accounts with any observed response (scan, click or hosted-page action) within the attribution window.",
        ),
      reachedAccounts: z
        .number()
        .int()
        .describe("Accounts mailed, or offered a gift on its claim page: the denominator of the rates."),
      rate: z.number().describe("respondingAccounts / reachedAccounts, as a fraction."),
      pageActions: z
        .array(
          z.object({
            kind: z.enum(
              RATE_ACTION_KINDS as [Exclude<TPageActionKind, "reply">, ...Exclude<TPageActionKind, "reply">[]],
            ),
            count: z.number().int().describe("Times observed (each once per occurrence)."),
            accounts: z.number().int().describe("Accounts that did it."),
            rate: z.number().describe("accounts / reachedAccounts, as a fraction."),
          }),
        )
        .describe(
          "Hosted-page actions as response rates (page_view, meeting_click, site_click, gift_claim, address_change, gift_decline). A reply sent on the page is the observed outcome kind reply, under kinds; responses_list has each action.",
        ),
    })
    .describe("What the service observed itself; never reported through the REST conversion endpoint."),
  kinds: z.array(ZKindResult),
  generatedAt: z.string(),
});

/** The programme's comparison per kind: rates, lift, verdict, and what each incremental outcome cost. */
const ZProgrammeKind = ZKindResult.pick({
  kind: true,
  treated: true,
  holdout: true,
  treatedRate: true,
  holdoutRate: true,
  absoluteLift: true,
  absoluteLiftCi: true,
  pValue: true,
  explanation: true,
  incremental: true,
  incrementalCi: true,
  costPerIncrementalCents: true,
  costPerIncrementalCiCents: true,
  costPerIncrementalReason: true,
  incrementalPerDollar: true,
  incrementalPerDollarCi: true,
}).extend({ verdict: z.enum(VERDICTS) });

function kindView(k: Omit<KindResult, "sources">): Omit<z.infer<typeof ZKindResult>, "sources"> {
  return {
    kind: k.kind,
    treated: k.treated,
    holdout: k.holdout,
    treatedRate: k.treatedRate,
    holdoutRate: k.holdoutRate,
    absoluteLift: k.absoluteLift,
    absoluteLiftCi: k.absoluteLiftCi,
    relativeLift: k.relativeLift,
    relativeLiftCi: k.relativeLiftCi,
    pValue: k.pValue,
    holdoutObservable: k.holdoutObservable,
    requiredAccounts: k.required,
    money: k.money && {
      meanTreatedCents: cents(k.money.meanTreated),
      meanHoldoutCents: cents(k.money.meanHoldout),
      incrementalPerAccountCents: cents(k.money.perAccount),
      incrementalPerAccountCiCents: [cents(k.money.perAccountCi[0]), cents(k.money.perAccountCi[1])],
      incrementalTotalCents: cents(k.money.total),
      incrementalTotalCiCents: [cents(k.money.totalCi[0]), cents(k.money.totalCi[1])],
      significant: k.money.significant,
    },
    verdict: k.verdict,
    explanation: k.explanation,
    alwaysValid: k.alwaysValid,
    ...costView(k),
  };
}

function resultsView(r: TCampaignResults): z.infer<typeof ZResults> {
  return {
    campaign: {
      ...r.campaign,
      status: r.campaign.status as "live" | "paused" | "ended",
      wentLiveAt: r.campaign.wentLiveAt?.toISOString() ?? null,
      endedAt: r.campaign.endedAt?.toISOString() ?? null,
    },
    attributionWindowDays: r.attributionWindowDays,
    spendCents: r.spendCents,
    arms: r.arms,
    sampleRatio: r.sampleRatio,
    responses: r.responses,
    simulatedPieces: r.simulatedPieces,
    kinds: r.kinds.map((k) => ({ ...kindView(k), sources: k.sources })),
    generatedAt: r.generatedAt.toISOString(),
  };
}

export const measurementTools = [
  defineTool({
    name: "results_get",
    title: "Lift results of a campaign",
    description: `A campaign's lift over its account holdout per outcome kind: 95% intervals, verdict, incremental money, spendCents, cost per incremental outcome, within ${ATTRIBUTION_WINDOW_DAYS} days of an account's first piece.`,
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({ campaignId: z.string().min(1).max(64).describe("The campaign's id (cmp_…).") }),
    result: ZResults,
    run: async (ctx, a) => {
      const campaign = await requireCampaign(ctx.db, { workspaceId: ctx.workspaceId, campaignId: a.campaignId });
      if (campaign.status === "draft") {
        throw new AppError(
          "invalid_state",
          "The campaign is a draft: it has mailed no one and held no one out, so it has no results yet.",
          {
            nextStep:
              "Results exist once the campaign has gone live (campaigns_request_go_live); read a live or ended campaign's results instead.",
          },
        );
      }
      return {
        requested: `Lift results of ${a.campaignId}.`,
        changed: [],
        result: resultsView(
          await getCampaignResults(ctx.db, { workspaceId: ctx.workspaceId, campaignId: a.campaignId }),
        ),
      };
    },
    errorHints: { not_found: "Find the campaign's id with campaigns_list (status live or ended)." },
  }),
  defineTool({
    name: "results_get_programme",
    title: "Programme results",
    description: "All mail's lift over the programme holdout, spend, cost per added outcome.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({}),
    result: z.object({
      programmeHoldoutShare: z.number(),
      attributionWindowDays: z.number().int(),
      spendCents: z.number().int().describe("Charged for every campaign's mailed pieces, in cents."),
      arms: z.object({ treatment: z.number().int(), holdout: z.number().int() }),
      campaigns: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          status: z.string(),
          spendCents: z.number().int(),
          piecesMailed: z.number().int(),
          heldOutByProgramme: z.number().int(),
        }),
      ),
      kinds: z.array(ZProgrammeKind),
      generatedAt: z.string(),
    }),
    run: async (ctx) => {
      const r = await getProgrammeResults(ctx.db, { workspaceId: ctx.workspaceId });
      return {
        requested: "The programme's results across campaigns.",
        changed: [],
        result: {
          ...r,
          kinds: r.kinds.map((k) => ZProgrammeKind.parse(kindView(k))),
          generatedAt: r.generatedAt.toISOString(),
        },
      };
    },
  }),
  defineTool({
    name: "holdouts_calculate_size",
    title: "Holdout size",
    description:
      "Accounts each arm needs to detect a relative lift over a baseline rate (two-proportion test), as GET /api/tools/holdout-size.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: ZHoldoutSizeInput,
    result: z.object({
      inputs: z.object({
        baselineRate: z.number(),
        relativeLift: z.number(),
        alpha: z.number(),
        power: z.number(),
        holdoutShare: z.number(),
      }),
      treatedRate: z.number().describe("baselineRate x (1 + relativeLift)."),
      absoluteLift: z.number(),
      holdoutSize: z.number().int().describe("Accounts to hold out."),
      treatedSize: z.number().int().describe("Accounts to mail."),
      totalSize: z.number().int(),
      sided: z.literal("two-sided"),
      formula: z.string(),
    }),
    run: async (_ctx, a) => ({
      requested: `Holdout size for a ${a.baselineRate} baseline and a ${a.relativeLift} relative lift.`,
      changed: [],
      result: { inputs: a, ...holdoutSize(a), sided: "two-sided" as const, formula: HOLDOUT_FORMULA },
    }),
  }),
];
