import { handleRestRequest } from "@/server/doors/rest/handler";

export const dynamic = "force-dynamic";

/** The workspace REST API (spec section 4): see src/server/doors/rest/handler.ts and /openapi.json. */
export const GET = handleRestRequest;
export const POST = handleRestRequest;
export const PUT = handleRestRequest;
export const PATCH = handleRestRequest;
export const DELETE = handleRestRequest;
