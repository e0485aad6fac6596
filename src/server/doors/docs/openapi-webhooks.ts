import { z } from "zod";
import { webhookEvents } from "@/server/programme/webhooks/events";

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are walked and patched freely; their shape is checked by Redocly's lint.
type Json = Record<string, any>;

const jsonSchema = (schema: z.ZodType) => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as Json;
  return rest;
};

const header = (description: string, example: string): Json => ({
  description,
  required: true,
  schema: { type: "string" },
  example,
});

/**
 * The outbound webhooks as OpenAPI 3.1 `webhooks`: one POST per event type, with the Standard
 * Webhooks headers and the event's JSON body, built from the same schemas the tests check the
 * database's payloads against (src/server/programme/webhooks/events.ts).
 */
export function openApiWebhooks(base: string): Json {
  const headers = {
    "webhook-id": header(
      "The event's id: the same on every retry and redelivery, so a receiver can ignore a repeat.",
      "msg_4b8c74cbe10d43f2955b8cb33d8bbd51",
    ),
    "webhook-timestamp": header(
      "Unix time in seconds when this attempt was signed; refuse one more than five minutes off.",
      "1795003200",
    ),
    "webhook-signature": header(
      "Space-separated `v1,<base64 HMAC-SHA256>` signatures of `<webhook-id>.<webhook-timestamp>.<body>` with the endpoint's secret (two for a day after a rotation).",
      "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
    ),
  };
  return Object.fromEntries(
    Object.entries(webhookEvents).map(([type, event]) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(/\./g, "_")}`,
          summary: type,
          description: `${event.summary} Delivered to each endpoint that chose \`${type}\` (Settings -> Webhooks), signed by the Standard Webhooks specification; see ${base}/llms.txt for verification. Answer 2xx within 15 seconds; anything else is retried with back-off for about a day (after a 429 or 503, when its Retry-After says); 410 Gone disables the endpoint.`,
          tags: ["Webhooks"],
          // Sent by this service, not called on it: the signature headers authenticate it.
          security: [],
          parameters: Object.entries(headers).map(([name, h]) => ({ name, in: "header", ...h })),
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["id", "type", "version", "timestamp", "workspaceId", "data"],
                  properties: {
                    id: { type: "string", description: "The event's id (also the webhook-id header)." },
                    type: { type: "string", const: type },
                    version: { type: "integer", const: 1, description: "The version of this type's data shape." },
                    timestamp: { type: "string", format: "date-time", description: "When it happened." },
                    workspaceId: { type: "string", description: "The workspace (ws_…) it happened in." },
                    data: jsonSchema(event.data),
                  },
                },
              },
            },
          },
          responses: { "2XX": { description: "Received. Any other answer, or none within 15 seconds, is retried." } },
        },
      },
    ]),
  );
}
