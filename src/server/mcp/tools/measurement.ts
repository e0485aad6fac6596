import { z } from "zod";
import { HOLDOUT_FORMULA, holdoutSize } from "@/server/calculators/formulas";
import { ZHoldoutSizeInput } from "@/server/calculators/schema";
import { ATTRIBUTION_WINDOW_DAYS, getCampaignResults } from "@/server/holdouts/results";
import { defineTool } from "../tool";

export const measurementTools = [
  defineTool({
    name: "results_get",
    title: "Lift results of a campaign",
    description: `Lift against the account-level holdout for a live or ended campaign: per conversion kind, treated and held-out accounts with counts and rates, absolute and relative lift with 95% intervals and a p-value, incremental pipeline and closed-won dollars, arm sizes against the size needed, a sample-ratio check and a plain verdict ("not enough data yet" when underpowered). Outcomes count within ${ATTRIBUTION_WINDOW_DAYS} days of the account's first mailed piece.`,
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({ campaignId: z.string().min(1).max(64).describe("The campaign's id (cmp_…).") }),
    result: z.looseObject({ campaign: z.looseObject({ id: z.string() }) }),
    run: async (ctx, a) => ({ requested: `Lift results of ${a.campaignId}.`, changed: [], result: await getCampaignResults(ctx.db, { workspaceId: ctx.workspaceId, campaignId: a.campaignId }) }),
  }),
  defineTool({
    name: "holdouts_calculate_size",
    title: "Holdout size",
    description:
      "How many accounts each arm needs to detect a relative lift over a baseline conversion rate (two-proportion test, pooled variance under the null; unequal allocation when the holdout share is not 0.5). The same answer as GET /api/tools/holdout-size.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: ZHoldoutSizeInput,
    result: z.object({ holdoutSize: z.number(), treatedSize: z.number(), totalSize: z.number(), formula: z.string() }).loose(),
    run: async (_ctx, a) => ({
      requested: `Holdout size for a ${a.baselineRate} baseline and a ${a.relativeLift} relative lift.`,
      changed: [],
      result: { inputs: a, ...holdoutSize(a), sided: "two-sided", formula: HOLDOUT_FORMULA },
    }),
  }),
];
