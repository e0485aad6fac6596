import type { PrismaClient } from "@/generated/prisma/client";
import { readCappedBody } from "@/server/ground/platform/capped-body";
import { receiveGoodyWebhook } from "./vendors/goody/webhooks";

/** Goody's events are an order of a few kilobytes; anything far larger is not one. */
export const MAX_GOODY_WEBHOOK_BYTES = 1024 * 1024;

/**
 * POST /api/webhooks/goody/{connectionId}: the raw body exactly as Svix sent it (the signature
 * covers it), read only up to MAX_GOODY_WEBHOOK_BYTES: a longer one is answered 413 at once.
 */
export async function goodyWebhookResponse(
  req: Request,
  prisma: PrismaClient,
  connectionId: string,
): Promise<Response> {
  const body = await readCappedBody(req, MAX_GOODY_WEBHOOK_BYTES, "drain");
  if (body === null)
    return Response.json(
      { received: false, error: "The body is too large: a Goody event is never over 1 MiB." },
      { status: 413, headers: { "Cache-Control": "no-store" } },
    );
  const answer = await receiveGoodyWebhook(prisma, {
    connectionId,
    rawBody: body.toString("utf8"),
    headers: req.headers,
  });
  return Response.json(answer.body, { status: answer.status, headers: { "Cache-Control": "no-store" } });
}
