import { InvalidClientMetadataError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { getDb } from "@/server/ground/db";
import { registerClient } from "@/server/records/oauth/clients";
import { limitOAuth, oauthError, oauthJson, preflight, readJsonBody } from "@/server/records/oauth/http";

export const dynamic = "force-dynamic";

/** RFC 7591 Dynamic Client Registration: public clients (PKCE), 201 with the client's information. */
export async function POST(req: Request) {
  try {
    await limitOAuth(req);
    const body = await readJsonBody(req);
    if (!body || typeof body !== "object")
      throw new InvalidClientMetadataError("The body must be a JSON object of client metadata.");
    return oauthJson(await registerClient(getDb(), body), 201);
  } catch (error) {
    return oauthError(error);
  }
}
export const OPTIONS = preflight;
