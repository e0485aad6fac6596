import { OAUTH_CORS, preflight } from "@/server/records/oauth/http";
import { protectedResourceMetadata } from "@/server/records/oauth/metadata";
import { baseUrl } from "@/server/ground/platform/base-url";

export const dynamic = "force-dynamic";

/** RFC 9728 Protected Resource Metadata (root form: the one protected resource is the MCP endpoint). */
export function GET() {
  return Response.json(protectedResourceMetadata(baseUrl()), {
    headers: { ...OAUTH_CORS, "Cache-Control": "public, max-age=3600" },
  });
}
export const OPTIONS = preflight;
