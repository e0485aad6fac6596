import { getDb } from "@/server/ground/db";
import { limitOAuth, oauthError, oauthJson, preflight, readForm } from "@/server/records/oauth/http";
import { revokeToken } from "@/server/records/oauth/tokens";

export const dynamic = "force-dynamic";

/** RFC 7009 token revocation: 200 whether or not the token was known. */
export async function POST(req: Request) {
  try {
    await limitOAuth(req);
    await revokeToken(getDb(), await readForm(req));
    return oauthJson({});
  } catch (error) {
    return oauthError(error);
  }
}
export const OPTIONS = preflight;
