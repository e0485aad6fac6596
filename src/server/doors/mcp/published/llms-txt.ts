import { listOperations } from "@/server/doors/rest/operations";
import { restRouter } from "@/server/doors/rest/router";
import { MCP_TOOLS } from "@/server/doors/mcp/catalog";
import { mcpResource } from "@/server/records/oauth/config";
import { SERVICE_NAME } from "@/server/ground/platform/version";
import { LIMITS } from "@/server/ground/rate-limits/limits";
import { webhookEventTypes } from "@/server/programme/webhooks/events";
import { MCP_SERVER_DESCRIPTION } from "./server-card";
import { TOOLSETS_SENTENCE } from "@/server/doors/mcp/toolsets";

/** /llms.txt (llmstxt.org): an H1, a summary, then sections of links to every document. */
export function llmsTxt(base: string): string {
  const ops = listOperations(restRouter);
  const rest = ops.filter((o) => o.path.startsWith("/v1/"));
  const tools = ops.filter((o) => o.path.startsWith("/tools/"));
  return `# ${SERVICE_NAME}

> Direct-mail programmes for B2B revenue teams and their agents: postcards, letters, handwritten notes and gifts, each written for one recipient, sent to CRM or CSV contacts, and measured against account-level holdouts. Agents work a workspace over MCP with OAuth consent in the browser; servers use a narrow REST API with workspace API keys; planning calculators are public.

Printing, approval and spending always wait for a person to accept a confirmation card in the browser. Read the agent policy before any write.

## Agents (MCP)

- [MCP server](${mcpResource(base)}): Streamable HTTP. ${MCP_SERVER_DESCRIPTION} Tools: ${MCP_TOOLS.map((t) => t.name).join(", ")}. ${TOOLSETS_SENTENCE}
- [MCP server card](${base}/.well-known/mcp): name, endpoint, protocol versions, authorization, tools and resources.
- [Agent authorization](${base}/auth.md): the OAuth 2.1 flow with browser consent, scopes and token lifetimes.
- [Agent policy](${base}/agents/policy.md): the rules to follow before any write call.

## REST API

- [OpenAPI description](${base}/openapi.json): every operation, field, bound, status and problem type.
${rest.map((o) => `- [${o.method.toUpperCase()} /api${o.path}](${base}/docs/api): ${o.summary ?? o.operationId} (scope \`${o.requiredScope}\`).`).join("\n")}
- [API reference](${base}/docs/api): the OpenAPI description, readable. ${LIMITS.restEndpointPerKey.limit} requests a minute per key and endpoint.
- [Problem types](${base}/problems): what each error means and how to fix it.
- [Entry-event lifecycle](${base}/docs/lifecycle): each status and skip reason ([as Markdown](${base}/docs/lifecycle.md)).
- [Mailability reasons](${base}/docs/mailability): every status and reason of the mailability audit, and how the lifecycle uses them ([as Markdown](${base}/docs/mailability.md)).
- [Errors as Markdown](${base}/problems.md): every problem type and every MCP tool error code.

## Webhooks

The workspace owner adds endpoints in Settings -> Webhooks and chooses event types: ${webhookEventTypes.map((t) => `\`${t}\``).join(", ")}. Each event's body and headers are in [openapi.json](${base}/openapi.json) under \`webhooks\`. Deliveries are signed by the [Standard Webhooks](https://www.standardwebhooks.com) specification with the endpoint's secret (\`whsec_…\`, shown once); answer 2xx within 15 seconds, and expect retries with the same \`webhook-id\` for about a day (a \`429\` or \`503\` with \`Retry-After\` is retried when asked; \`410 Gone\` disables the endpoint). Verify with the \`standardwebhooks\` package:

\`\`\`ts
import { Webhook } from "standardwebhooks";
const wh = new Webhook(process.env.DIRECT_MAIL_WEBHOOK_SECRET!); // whsec_…
// rawBody: the request body exactly as received (a string), headers: webhook-id, webhook-timestamp, webhook-signature
const event = wh.verify(rawBody, headers) as { id: string; type: string; data: unknown }; // throws when forged or stale
if (await alreadyHandled(event.id)) return new Response(null, { status: 204 }); // retries repeat the id
\`\`\`

## Calculators

${tools.map((o) => `- [${o.summary ?? o.operationId}](${base}${o.path}): a page with a form and a chart; the same answer as JSON from \`GET ${base}/api${o.path}\` (no key, open CORS).`).join("\n")}

## Optional

- [Service health](${base}/api/health)
`;
}
