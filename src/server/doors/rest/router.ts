import { calculatorRouter } from "@/server/records/calculators/router";
import { conversionRestRouter } from "@/server/programme/conversions/router";
import { entryEventRestRouter } from "@/server/programme/entry/router";
import { router } from "@/server/ground/trpc";

/**
 * The published HTTP API: the workspace endpoints under /api/v1 (API keys) and the public
 * calculators under /api/tools, as procedures with OpenAPI meta served by trpc-to-openapi and
 * described by /openapi.json. Internal owner-UI procedures are not here.
 */
export const restRouter = router({
  entryEvents: entryEventRestRouter,
  conversions: conversionRestRouter,
  tools: calculatorRouter,
});
