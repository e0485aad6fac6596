import type { PrismaClient } from "@/generated/prisma/client";
import { readCappedBody } from "@/server/ground/platform/capped-body";
import { receiveLobWebhook } from "./webhooks";

/** Lob's events are a few kilobytes; anything far larger is not one. */
export const MAX_LOB_WEBHOOK_BYTES = 1024 * 1024;

/**
 * POST /api/webhooks/lob/{connectionId}: the raw body exactly as sent (the signature covers it),
 * read only up to MAX_LOB_WEBHOOK_BYTES: a longer one (by its Content-Length or by what arrives)
 * is answered 413 at once and never held in memory, signed or not.
 */
export async function lobWebhookResponse(req: Request, prisma: PrismaClient, connectionId: string): Promise<Response> {
  const body = await readCappedBody(req, MAX_LOB_WEBHOOK_BYTES, "drain");
  if (body === null)
    return Response.json(
      { received: false, error: "The body is too large: a Lob event is never over 1 MiB." },
      { status: 413, headers: { "Cache-Control": "no-store" } },
    );
  const answer = await receiveLobWebhook(prisma, {
    connectionId,
    rawBody: body.toString("utf8"),
    signature: req.headers.get("lob-signature"),
    timestamp: req.headers.get("lob-signature-timestamp"),
  });
  return Response.json(answer.body, { status: answer.status, headers: { "Cache-Control": "no-store" } });
}
