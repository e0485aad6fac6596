import { getDb } from "@/server/ground/db";
import { limitOAuth, oauthError, oauthJson, preflight, readForm } from "@/server/records/oauth/http";
import { tokenRequest } from "@/server/records/oauth/tokens";

export const dynamic = "force-dynamic";

/** The token endpoint: authorization_code (PKCE S256) and refresh_token (rotating). */
export async function POST(req: Request) {
  try {
    await limitOAuth(req);
    return oauthJson(await tokenRequest(getDb(), await readForm(req)));
  } catch (error) {
    return oauthError(error);
  }
}
export const OPTIONS = preflight;
