import { OAUTH_CORS, preflight } from "@/server/records/oauth/http";
import { authorizationServerMetadata } from "@/server/records/oauth/metadata";
import { baseUrl } from "@/server/ground/platform/base-url";

export const dynamic = "force-dynamic";

/** RFC 8414 Authorization Server Metadata. */
export function GET() {
  return Response.json(authorizationServerMetadata(baseUrl()), {
    headers: { ...OAUTH_CORS, "Cache-Control": "public, max-age=3600" },
  });
}
export const OPTIONS = preflight;
