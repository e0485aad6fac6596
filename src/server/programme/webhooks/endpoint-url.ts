import { isIP } from "node:net";
import { AppError } from "@/server/ground/errors";
import { isPrivateAddress, isPublicHost } from "@/server/records/oauth/public-address";

/**
 * Where a webhook may be sent: https on a public address. Loopback and private addresses are
 * refused, when the endpoint is saved and again at every delivery (the name is resolved then and
 * the connection made only to the address checked), so a name that later points inside the
 * network reaches nothing. `WEBHOOK_TEST_ALLOW_LOCAL_URLS=1` allows http and local addresses:
 * for tests with a local receiver only, never in production.
 */
export const allowLocalWebhookUrls = (env: NodeJS.ProcessEnv = process.env) =>
  env.WEBHOOK_TEST_ALLOW_LOCAL_URLS === "1";

export const WEBHOOK_URL_MAX = 2000;

/** The URL as it will be called, or a 422 with a sentence. Resolves the host name (public addresses only). */
export async function checkEndpointUrl(raw: string, resolve?: (host: string) => Promise<string[]>): Promise<string> {
  const refuse = (detail: string) =>
    new AppError("validation_failed", `${detail} Nothing was saved.`, { errors: [{ pointer: "/url", detail }] });
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw refuse("The webhook URL is not a valid absolute URL (for example https://hooks.example.com/direct-mail).");
  }
  const local = allowLocalWebhookUrls();
  if (url.protocol !== "https:" && !(local && url.protocol === "http:"))
    throw refuse("The webhook URL must start with https://.");
  if (url.username || url.password)
    throw refuse(
      "The webhook URL must not carry a user name or password; use the signing secret to authenticate the service.",
    );
  if (url.hash) throw refuse("The webhook URL must not have a #fragment.");
  if (!local && !(await isPublicHost(url.hostname, resolve))) {
    throw refuse(
      `${url.hostname} is a loopback, private or unresolvable address; webhooks are sent only to public https addresses.`,
    );
  }
  return url.toString();
}

/** For the delivery's DNS lookup: refuses an address that is not public (unless local URLs are allowed). */
export function addressAllowed(address: string): boolean {
  return allowLocalWebhookUrls() || (isIP(address) !== 0 && !isPrivateAddress(address));
}
