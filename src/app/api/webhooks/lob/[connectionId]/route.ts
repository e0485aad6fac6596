import { getDb } from "@/server/ground/db";
import { lobWebhookResponse } from "@/server/programme/fulfilment/lob-webhook-route";

export const dynamic = "force-dynamic";

/**
 * POST /api/webhooks/lob/{connectionId}: Lob's webhook for one workspace's Lob account. Verified
 * with that connection's signing secret (Lob-Signature, Lob-Signature-Timestamp); unsigned,
 * forged or stale requests get 401 and change nothing; a body over 1 MiB gets 413 unread. See
 * docs/printing.md.
 */
export async function POST(req: Request, { params }: { params: Promise<{ connectionId: string }> }) {
  const { connectionId } = await params;
  return lobWebhookResponse(req, getDb(), connectionId);
}
