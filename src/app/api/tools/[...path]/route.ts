import { handleToolsRequest } from "@/server/rest/tools-handler";

export const dynamic = "force-dynamic";

/** Public calculators (spec 4.4): see src/server/rest/tools-handler.ts and /openapi.json. */
export const GET = handleToolsRequest;
export const OPTIONS = handleToolsRequest;
export const POST = handleToolsRequest;
