import { handleToolsRequest } from "@/server/doors/rest/tools-handler";

export const dynamic = "force-dynamic";

/**
 * Public calculators (spec 4.4): see src/server/doors/rest/tools-handler.ts and /openapi.json. Every
 * method is handed to the handler, so a method calculators do not take is a 405 problem document
 * with Allow, like the rest of the API's refusals.
 */
export const GET = handleToolsRequest;
export const OPTIONS = handleToolsRequest;
export const POST = handleToolsRequest;
export const PUT = handleToolsRequest;
export const PATCH = handleToolsRequest;
export const DELETE = handleToolsRequest;
