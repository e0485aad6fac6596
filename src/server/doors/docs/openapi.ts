import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { API_KEY_SCOPES } from "@/server/ground/access/principals";
import { scopeDescriptions } from "@/server/records/api-keys/schema";
import { problemTable } from "@/server/ground/errors";
import { SERVICE_NAME, SERVICE_VERSION } from "@/server/ground/platform/version";
import { LIMITS, REST_BODY_LIMIT_BYTES } from "@/server/ground/rate-limits/limits";
import { restRouter } from "@/server/doors/rest/router";
import { CLOCK_SKEW_SECONDS } from "@/server/ground/http/fields";
import { listOperations } from "@/server/doors/rest/operations";
import { exampleProblem, problemsByStatus } from "./openapi-problems";
import { openApiWebhooks } from "./openapi-webhooks";

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are walked and patched freely; their shape is checked by Redocly's lint.
type Json = Record<string, any>;

const limit = LIMITS.restEndpointPerKey;

const description = `The workspace REST API of ${SERVICE_NAME}: admit contacts to live API-entry campaigns, follow those entry events, and report conversions. It is deliberately narrow: a key can do nothing else (it cannot read or browse workspace data, create contacts, launch mail, approve copy or change a campaign). The public planning calculators under /api/tools need no key.

**Authentication.** Create a key in Settings -> API keys and send it as \`Authorization: Bearer <key>\`. Keys look like \`dmk_\` followed by 32 letters and digits. A missing, malformed, unknown or revoked key gets 401 with \`WWW-Authenticate: Bearer\` (with \`error="invalid_token"\` when a key was sent); a key without the endpoint's scope gets 403 with \`WWW-Authenticate: Bearer error="insufficient_scope", scope="<scope>"\`. Keys are bound to one workspace: other workspaces' objects are simply not found.

**Scopes.** ${API_KEY_SCOPES.map((s) => `\`${s}\`: ${scopeDescriptions[s]}`).join(" ")} New keys get both; keys made before conversion reporting carry entry only.

**Rate limits.** ${limit.limit} requests per minute per key and per endpoint, counted in fixed one-minute windows shared by every server instance. Every response of an endpoint carries \`RateLimit-Policy\` and \`RateLimit\` (IETF httpapi ratelimit-headers draft) and \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (Unix time in seconds). Past the limit: 429 with \`Retry-After\` in seconds. Requests without a valid key are counted per client address.

**Idempotency.** Entry events: the \`idempotencyKey\` is unique per workspace (across campaigns and keys) and kept for as long as the event exists, which is for good; repeating the same body returns 202 with the same \`eventId\` and its current status, the same key with other data (another campaign, contact or occurredAt) is 409. Conversions: an occurrence is identified by sid, kind and \`externalId\` (or, without one, \`at\`); the same values return the same \`outcomeId\`, other values are 409. Both are safe under concurrency: parallel duplicates create one record.

**Time.** Date-times are RFC 3339 / ISO 8601 with a time-zone offset (\`Z\` or \`±hh:mm\`); responses use UTC. "Not in the future" allows ${CLOCK_SKEW_SECONDS / 60} minutes of clock skew.

**Errors.** Every failure is an RFC 9457 problem document (\`application/problem+json\`) whose \`type\` is a page on this service explaining the problem and the fix. Invalid fields give 422 with an \`errors\` array of \`{pointer, detail}\` (JSON Pointers into the body); a body that cannot be read gives 400 (not JSON, not an object), 413 (over ${REST_BODY_LIMIT_BYTES / 1024} KiB) or 415 (not \`application/json\`). Nothing is written when a request fails. A missing campaign, another campaign's event, another key's or workspace's event, an unknown sid and another workspace's sid all give the same 404 document (only \`instance\` differs).

**Versioning.** Everything lives under \`/api/v1\`. Within v1 changes are additive only: new optional request fields, new response members, new enum values (tolerate values you do not know) and new problem types. A breaking change gets a new prefix (\`/api/v2\`) and v1 keeps working for at least 12 months after v2 ships; deprecated operations are marked \`deprecated\` here and answered with \`Deprecation\` and \`Sunset\` headers.`;

const rateHeaders: Json = {
  "RateLimit-Policy": { $ref: "#/components/headers/RateLimit-Policy" },
  RateLimit: { $ref: "#/components/headers/RateLimit" },
  "X-RateLimit-Limit": { $ref: "#/components/headers/X-RateLimit-Limit" },
  "X-RateLimit-Remaining": { $ref: "#/components/headers/X-RateLimit-Remaining" },
  "X-RateLimit-Reset": { $ref: "#/components/headers/X-RateLimit-Reset" },
};

const components: Json = {
  securitySchemes: {
    apiKey: {
      type: "http",
      scheme: "bearer",
      bearerFormat: "dmk_<32 letters and digits>",
      description: `A workspace API key from Settings -> API keys. Scopes: ${API_KEY_SCOPES.join(", ")}.`,
    },
  },
  headers: {
    "RateLimit-Policy": {
      description: `The quota policy, e.g. \`"${limit.policy}";q=${limit.limit};w=${limit.windowSeconds}\`.`,
      schema: { type: "string" },
    },
    RateLimit: {
      description: `What is left in this window, e.g. \`"${limit.policy}";r=59;t=42\` (r: remaining requests, t: seconds until the window ends).`,
      schema: { type: "string" },
    },
    "X-RateLimit-Limit": { description: "Requests allowed per window.", schema: { type: "integer" } },
    "X-RateLimit-Remaining": { description: "Requests left in this window.", schema: { type: "integer" } },
    "X-RateLimit-Reset": { description: "Unix time (seconds) when the window ends.", schema: { type: "integer" } },
    "Retry-After": { description: "Seconds to wait before trying again.", schema: { type: "integer" } },
    "WWW-Authenticate": {
      description: "RFC 6750 Bearer challenge; for 403 it names the missing scope.",
      schema: { type: "string" },
    },
    Location: { description: "Where to read the accepted entry event's status.", schema: { type: "string" } },
    "Cache-Control": {
      description: "Calculator answers depend only on their parameters: `public, max-age=86400`.",
      schema: { type: "string" },
    },
  },
  schemas: {
    Problem: {
      type: "object",
      description: "An RFC 9457 problem document.",
      required: ["type", "title", "status", "detail", "instance"],
      properties: {
        type: {
          type: "string",
          format: "uri",
          description: "Identifies the problem; a page on this service explains it and the fix.",
        },
        title: { type: "string", description: "Short summary of the problem type." },
        status: { type: "integer", description: "The HTTP status code." },
        detail: { type: "string", description: "What happened in this occurrence, in a sentence." },
        instance: { type: "string", description: "The request path of this occurrence." },
        errors: {
          type: "array",
          description: "For 422 (and some 409/422 precondition problems): each field at fault.",
          items: { $ref: "#/components/schemas/FieldError" },
        },
      },
    },
    FieldError: {
      type: "object",
      description: "One field at fault: a body member (pointer) or a query parameter (parameter).",
      required: ["detail"],
      properties: {
        pointer: {
          type: "string",
          description: "JSON Pointer (RFC 6901) to the member of the request body, e.g. /occurredAt.",
        },
        parameter: { type: "string", description: "The query parameter, e.g. baselineRate (calculators)." },
        detail: { type: "string", description: "What is wrong with it, in a sentence." },
      },
    },
  },
};

const requestExamples: Record<string, Json> = {
  postEntryEvent: {
    trialStarted: {
      summary: "A trial started in the product",
      value: {
        contactId: "ctc_4b8c74cbe10d43f2955b8cb33d8bbd51",
        idempotencyKey: "trial-started:8812",
        occurredAt: "2026-11-20T15:04:05Z",
      },
    },
    minimal: {
      summary: "Without occurredAt (acceptance time is used)",
      value: { contactId: "ctc_4b8c74cbe10d43f2955b8cb33d8bbd51", idempotencyKey: "crm-workflow:run-5531" },
    },
    byEmail: {
      summary: "The contact named by its email address",
      value: { contactId: "dana.reyes@northwind.example", idempotencyKey: "signup:northwind:dana" },
    },
    byCrmRecord: {
      summary: "The contact named by its HubSpot record id (salesforce:<id> for Salesforce)",
      value: { contactId: "hubspot:51234", idempotencyKey: "hubspot-workflow:51234:demo-booked" },
    },
  },
  reportConversion: {
    meeting: {
      summary: "A meeting was booked",
      value: { sid: "Kq3ZpX8vLm2Tn9Ra", kind: "meeting_booked", externalId: "hubspot-meeting-7710" },
    },
    closedWon: {
      summary: "A deal closed",
      value: {
        sid: "Kq3ZpX8vLm2Tn9Ra",
        kind: "closed_won",
        amountCents: 4800000,
        at: "2026-11-21T17:30:00-05:00",
        externalId: "sfdc-opp-0065g00000AbCdE",
      },
    },
  },
};

/** The published OpenAPI 3.1 description, generated from the REST procedures and corrected to tell the truth. */
export function buildOpenApiDocument(base: string): OpenAPIObject {
  // Edited in place below, member by member, as plain JSON.
  const doc: Json = generateOpenApiDocument(restRouter, {
    title: `${SERVICE_NAME} API`,
    description,
    version: SERVICE_VERSION,
    baseUrl: `${base}/api`,
  });

  for (const op of listOperations(restRouter)) {
    const operation: Json = doc.paths[op.path][op.method.toLowerCase()];
    operation.security = op.requiredScope ? [{ apiKey: [op.requiredScope] }] : [];
    const success = operation.responses["200"];
    const responses: Json = {
      [String(op.successStatus)]: {
        ...success,
        headers: {
          ...rateHeaders,
          ...(op.operationId === "postEntryEvent" ? { Location: { $ref: "#/components/headers/Location" } } : {}),
          ...(op.requiredScope ? {} : { "Cache-Control": { $ref: "#/components/headers/Cache-Control" } }),
        },
      },
    };
    for (const [status, codes] of problemsByStatus(op)) {
      const instance = `/api${op.path}`;
      responses[String(status)] = {
        description: codes
          .map((c) => `${problemTable[c].title} (\`${base}/problems/${problemTable[c].slug}\`).`)
          .join(" "),
        headers: {
          ...rateHeaders,
          ...(status === 401 || status === 403
            ? { "WWW-Authenticate": { $ref: "#/components/headers/WWW-Authenticate" } }
            : {}),
          ...(status === 429 ? { "Retry-After": { $ref: "#/components/headers/Retry-After" } } : {}),
        },
        content: {
          "application/problem+json": {
            schema: { $ref: "#/components/schemas/Problem" },
            examples: Object.fromEntries(
              codes.map((c) => [
                problemTable[c].slug,
                { summary: problemTable[c].title, value: exampleProblem(c, base, instance) },
              ]),
            ),
          },
        },
      };
    }
    responses.default = {
      description: `${problemTable.internal.title} (\`${base}/problems/${problemTable.internal.slug}\`). Unexpected failures never show their cause.`,
      content: {
        "application/problem+json": {
          schema: { $ref: "#/components/schemas/Problem" },
          example: exampleProblem("internal", base, `/api${op.path}`),
        },
      },
    };
    operation.responses = responses;
    const examples = requestExamples[op.operationId];
    if (examples && operation.requestBody) operation.requestBody.content["application/json"].examples = examples;
  }

  doc.components = components;
  doc.webhooks = openApiWebhooks(base);
  doc.tags = [
    {
      name: "Entry events",
      description:
        "Admit existing contacts to live API-entry campaigns and follow each event through the campaign's gates.",
    },
    {
      name: "Conversions",
      description: "Report outcomes against the sid a printed response link carried to your destination URL.",
    },
    {
      name: "Calculators",
      description: `Planning calculators under /api/tools: GET, JSON, no account and no key, open CORS (preflight answered), cacheable for a day. ${LIMITS.calculatorsPerIp.limit} requests a minute per client address. Rates are fractions (7% is 0.07); invalid parameters give a 400 problem naming each with its bound.`,
    },
    {
      name: "Webhooks",
      description:
        "Events this service POSTs to the team's own endpoints (Settings -> Webhooks, the workspace owner), signed by the Standard Webhooks specification: pieces, entry events, responses, conversions, campaigns, audits, imports and CRM syncs.",
    },
  ];
  doc.info.contact = { name: `${SERVICE_NAME} support`, url: `${base}/docs/api` };
  doc.info.license = { name: "Proprietary", identifier: "LicenseRef-Proprietary" };
  return doc as OpenAPIObject;
}
