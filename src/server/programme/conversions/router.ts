import { apiKeyProcedure, router } from "@/server/ground/trpc";
import { ZConversionAccepted, ZReportConversionInput } from "./schema";
import { reportConversion } from "./service";

/** REST: conversions (spec 4.3). */
export const conversionRestRouter = router({
  report: apiKeyProcedure("post_conversions")
    .meta({
      successStatus: 202,
      problems: ["not_found", "conversion_conflict"],
      openapi: {
        method: "POST",
        path: "/v1/conversions",
        operationId: "reportConversion",
        tags: ["Conversions"],
        summary: "Report a conversion",
        description:
          "Reports an outcome against the sid that a printed response link carried to your destination URL. An occurrence is identified by the sid, the kind and the externalId (or, without one, the at): retrying it with the same values returns the same outcome, the identity with other values is 409. When the same kind can happen more than once for one piece, give each occurrence its own externalId or at. Scans, clicks and hosted-page actions are observed by the service itself and cannot be reported here. An unknown sid and another workspace's sid give the same 404.",
        successDescription: "Accepted: the outcome is stored; attribution to the campaign's results follows.",
      },
    })
    .input(ZReportConversionInput)
    .output(ZConversionAccepted)
    .mutation(({ ctx, input }) =>
      reportConversion(ctx.db, { workspaceId: ctx.workspaceId, apiKeyId: ctx.apiKey.id, input }),
    ),
});
