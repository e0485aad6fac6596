import { publicProcedure, router } from "@/server/ground/trpc";
import { breakEven, HOLDOUT_FORMULA, holdoutSize, minimumDetectableLift, testDuration } from "./formulas";
import {
  ZBreakEvenInput,
  ZBreakEvenOutput,
  ZHoldoutSizeInput,
  ZHoldoutSizeOutput,
  ZMinimumDetectableLiftInput,
  ZMinimumDetectableLiftOutput,
  ZTestDurationInput,
  ZTestDurationOutput,
} from "./schema";

const tags = ["Calculators"];

/** Public calculators: GET, JSON, no account, open CORS (served by src/server/doors/rest/tools-handler.ts). */
export const calculatorRouter = router({
  holdoutSize: publicProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/tools/holdout-size",
        operationId: "holdoutSize",
        tags,
        summary: "Holdout size",
        description:
          "How many units each arm needs to detect a relative lift over a baseline conversion rate. For baselineRate 0.07 and relativeLift 0.2 with the defaults: 5,691 per arm.",
      },
    })
    .input(ZHoldoutSizeInput)
    .output(ZHoldoutSizeOutput)
    .query(({ input }) => ({
      inputs: input,
      ...holdoutSize(input),
      sided: "two-sided" as const,
      formula: HOLDOUT_FORMULA,
    })),
  minimumDetectableLift: publicProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/tools/minimum-detectable-lift",
        operationId: "minimumDetectableLift",
        tags,
        summary: "Minimum detectable lift",
        description:
          "The smallest relative lift a test of a given audience size and holdout share can detect, from the same formula as holdout-size.",
      },
    })
    .input(ZMinimumDetectableLiftInput)
    .output(ZMinimumDetectableLiftOutput)
    .query(({ input }) => {
      const r = minimumDetectableLift(input);
      const holdout = Math.floor(input.audienceSize * input.holdoutShare);
      return {
        inputs: input,
        detectable: r !== null,
        relativeLift: r?.relativeLift ?? null,
        absoluteLift: r?.absoluteLift ?? null,
        treatedRate: r?.treatedRate ?? null,
        holdoutSize: holdout,
        treatedSize: input.audienceSize - holdout,
        formula: `${HOLDOUT_FORMULA}, solved for the lift at which n_holdout + n_treated = audienceSize`,
      };
    }),
  breakEven: publicProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/tools/break-even",
        operationId: "breakEven",
        tags,
        summary: "Break-even response rate and ROI",
        description:
          "The response rate at which a piece pays for itself, from its cost, the win rate of responses and the deal value; with an expected response rate, the ROI.",
      },
    })
    .input(ZBreakEvenInput)
    .output(ZBreakEvenOutput)
    .query(({ input }) => ({ inputs: input, ...breakEven(input) })),
  testDuration: publicProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/tools/test-duration",
        operationId: "testDuration",
        tags,
        summary: "Test duration",
        description:
          "How long a holdout test must run: weeks to enrol the sample holdout-size requires at a weekly volume, plus the attribution window.",
      },
    })
    .input(ZTestDurationInput)
    .output(ZTestDurationOutput)
    .query(({ input }) => ({
      inputs: input,
      ...testDuration(input),
      sided: "two-sided" as const,
      formula: HOLDOUT_FORMULA,
    })),
});
