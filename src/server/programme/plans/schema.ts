import { z } from "zod";

export const ZPlan = z
  .enum(["audit", "paid"])
  .describe("audit: the free plan, nothing is mailed; paid: mailing is on.");
export const ZChangePlan = z.object({ plan: ZPlan });
