import { AppError } from "@/server/ground/errors";
import { problemResponse } from "@/server/ground/http/problem-response";

/**
 * What next-auth's route answers, by method: anything else it would refuse with a 500 (its
 * "callback for provider type credentials not supported" for a GET of the credentials callback,
 * its configuration error for a callback URL it does not accept), so it is refused here first with
 * a 4xx. Only the credentials provider exists.
 */
const ACTIONS: Record<string, { methods: string[]; provider?: "required" | "optional" }> = {
  providers: { methods: ["GET"] },
  session: { methods: ["GET", "POST"] },
  csrf: { methods: ["GET"] },
  signin: { methods: ["GET", "POST"], provider: "optional" },
  signout: { methods: ["GET", "POST"] },
  callback: { methods: ["POST"], provider: "required" },
  "verify-request": { methods: ["GET"] },
  error: { methods: ["GET"], provider: "optional" },
  _log: { methods: ["POST"] },
};
const PROVIDERS = new Set(["credentials"]);
const CALLBACK_URL_COOKIES = ["next-auth.callback-url", "__Secure-next-auth.callback-url"];

/** next-auth's own test of a callback URL: http(s), absolute or a path on this service. */
function acceptableCallbackUrl(value: string, base: string): boolean {
  try {
    return /^https?:$/.test(new URL(value, value.startsWith("/") ? base : undefined).protocol);
  } catch {
    return false;
  }
}

function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const raw = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return undefined;
}

/** A 4xx problem response for a request next-auth cannot answer well, or null to let it answer. */
export function refuseAuthRequest(req: Request, segments: string[]): Response | null {
  const url = new URL(req.url);
  const instance = url.pathname;
  const [action, provider, ...rest] = segments;
  const spec = action ? ACTIONS[action] : undefined;
  const method = req.method === "HEAD" ? "GET" : req.method;
  if (!spec || rest.length > 0 || (provider !== undefined && !spec.provider))
    return problemResponse(new AppError("not_found", "There is no such sign-in address."), instance);
  if (spec.provider && provider !== undefined && action !== "error" && !PROVIDERS.has(provider))
    return problemResponse(new AppError("not_found", "There is no such sign-in provider."), instance);
  if (spec.provider === "required" && provider === undefined)
    return problemResponse(new AppError("not_found", "There is no such sign-in address."), instance);
  if (!spec.methods.includes(method))
    return problemResponse(
      new AppError("method_not_allowed", `This sign-in address answers ${spec.methods.join(" and ")} only.`),
      instance,
      { Allow: spec.methods.join(", ") },
    );
  const query = url.searchParams.get("callbackUrl");
  if (query !== null && !acceptableCallbackUrl(query, url.origin))
    return problemResponse(
      new AppError("invalid_parameters", "callbackUrl must be an http(s) address or a path on this service.", {
        errors: [{ parameter: "callbackUrl", detail: "Not an http(s) address or a path." }],
      }),
      instance,
    );
  const cookies = req.headers.get("cookie");
  for (const name of CALLBACK_URL_COOKIES) {
    const value = cookieValue(cookies, name);
    if (value !== undefined && !acceptableCallbackUrl(value, url.origin))
      return problemResponse(
        new AppError("malformed_request", `The ${name} cookie is not an http(s) address; sign in again.`),
        instance,
        { "Set-Cookie": `${name}=; Path=/; Max-Age=0; SameSite=Lax` },
      );
  }
  return null;
}
