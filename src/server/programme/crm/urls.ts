import type { Env } from "@/server/ground/platform/config";

/**
 * Which addresses the server may fetch for a CRM. The Salesforce My Domain URL is typed by a
 * person, so only Salesforce's own My Domain hosts are accepted (https, no port, no user info):
 * `<name>.my.salesforce.com` with its sandbox, developer, scratch, demo and patch forms
 * (`<name>--<sandbox>.sandbox.my.salesforce.com`, `<name>.develop.my.salesforce.com`, ...), and the
 * government cloud's `.my.salesforce.mil`. The instance URL Salesforce answers with must pass
 * the same check before any request goes to it.
 *
 * Tests only: CRM_TEST_ALLOW_LOCAL_URLS=1 also lets http(s)://127.0.0.1, localhost and [::1]
 * through (the local fakes), and only then does CRM_TEST_HUBSPOT_BASE_URL replace HubSpot's API
 * address. Never set them in production.
 */
const SALESFORCE_HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){1,3}my\.salesforce\.(?:com|mil)$/;
const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

export const HUBSPOT_API = "https://api.hubapi.com";

export const localUrlsAllowed = (env: Env = process.env) => env.CRM_TEST_ALLOW_LOCAL_URLS === "1";

/** The origin of a Salesforce My Domain URL as people paste it, or an error sentence. */
export function salesforceOrigin(input: string, env: Env = process.env): { origin: string } | { error: string } {
  let text = input.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) text = `https://${text}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return {
      error: "This is not a web address. Paste your My Domain URL, for example https://acme.my.salesforce.com.",
    };
  }
  const host = url.hostname.toLowerCase();
  if (localUrlsAllowed(env) && LOCAL_HOSTS.has(host) && (url.protocol === "http:" || url.protocol === "https:"))
    return { origin: url.origin };
  if (url.protocol !== "https:") return { error: "The My Domain URL must start with https://." };
  if (url.username || url.password || url.port)
    return {
      error: "The My Domain URL must be just the address, like https://acme.my.salesforce.com (no port, no user name).",
    };
  if (host === "login.salesforce.com" || host === "test.salesforce.com") {
    return {
      error:
        "Use your org's My Domain URL (Setup → My Domain, like https://acme.my.salesforce.com), not login.salesforce.com: the client-credentials flow works only on My Domain.",
    };
  }
  if (host.endsWith(".lightning.force.com")) {
    return {
      error: `That is the Lightning address of your org. Use its My Domain URL instead: https://${host.replace(/\.lightning\.force\.com$/, ".my.salesforce.com")}.`,
    };
  }
  if (!SALESFORCE_HOST.test(host))
    return {
      error:
        "Only Salesforce My Domain addresses are accepted (https://<your-domain>.my.salesforce.com); find yours in Setup → My Domain.",
    };
  return { origin: `https://${host}` };
}

/** HubSpot's API address (a local fake's only in tests, see above). */
export function hubspotBaseUrl(env: Env = process.env): string {
  const override = env.CRM_TEST_HUBSPOT_BASE_URL?.trim();
  return override && localUrlsAllowed(env) ? override.replace(/\/$/, "") : HUBSPOT_API;
}
