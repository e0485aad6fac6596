import { buildOpenApiDocument } from "@/server/doors/docs/openapi";
import { baseUrl } from "@/server/ground/platform/base-url";

export const dynamic = "force-dynamic";

/** GET /openapi.json: the OpenAPI 3.1 description, generated from the code on each start. */
export function GET() {
  return Response.json(buildOpenApiDocument(baseUrl()), {
    headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
  });
}
