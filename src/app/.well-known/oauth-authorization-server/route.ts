import { OAUTH_CORS, preflight } from "@/server/oauth/http";
import { authorizationServerMetadata } from "@/server/oauth/metadata";
import { baseUrl } from "@/server/platform/base-url";

export const dynamic = "force-dynamic";

/** RFC 8414 Authorization Server Metadata. */
export function GET() {
  return Response.json(authorizationServerMetadata(baseUrl()), {
    headers: { ...OAUTH_CORS, "Cache-Control": "public, max-age=3600" },
  });
}
export const OPTIONS = preflight;
