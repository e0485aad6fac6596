import { getDb } from "@/server/ground/db";
import { receiveLobWebhook } from "@/server/programme/fulfilment/webhooks";

export const dynamic = "force-dynamic";

/**
 * POST /api/webhooks/lob/{connectionId}: Lob's webhook for one workspace's Lob account. Verified
 * with that connection's signing secret (Lob-Signature, Lob-Signature-Timestamp); unsigned,
 * forged or stale requests get 401 and change nothing. See docs/printing.md.
 */
export async function POST(req: Request, { params }: { params: Promise<{ connectionId: string }> }) {
  const { connectionId } = await params;
  const rawBody = await req.text();
  if (rawBody.length > 1_000_000)
    return Response.json({ received: false, error: "The body is too large." }, { status: 413 });
  const answer = await receiveLobWebhook(getDb(), {
    connectionId,
    rawBody,
    signature: req.headers.get("lob-signature"),
    timestamp: req.headers.get("lob-signature-timestamp"),
  });
  return Response.json(answer.body, { status: answer.status });
}
