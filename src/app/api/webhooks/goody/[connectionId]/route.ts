import { getDb } from "@/server/ground/db";
import { goodyWebhookResponse } from "@/server/programme/fulfilment/goody-webhook-route";

export const dynamic = "force-dynamic";

/**
 * POST /api/webhooks/goody/{connectionId}: Goody's webhooks (sent through Svix) for one
 * workspace's Goody account, verified with that connection's signing secret; unsigned, forged or
 * stale requests get 401 and change nothing; a body over 1 MiB gets 413 unread. See docs/printing.md.
 */
export async function POST(req: Request, { params }: { params: Promise<{ connectionId: string }> }) {
  const { connectionId } = await params;
  return goodyWebhookResponse(req, getDb(), connectionId);
}
