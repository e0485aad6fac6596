import type { Db } from "@/server/ground/db";
import { baseUrl } from "@/server/ground/platform/base-url";

/** Whether an address names this machine (localhost, 127.0.0.0/8, ::1, 0.0.0.0): no recipient's phone can open it. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, "");
  } catch {
    return false;
  }
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127(\.\d{1,3}){3}$/.test(host) ||
    host === "::1" ||
    host === "0.0.0.0" ||
    host === "::"
  );
}

/**
 * Why a campaign cannot go live while the service's public address ({base_url}, NEXTAUTH_URL) is a
 * loopback one, or null: on the paid plan with a real print vendor's live account, every piece
 * carries a QR code and a short link at that address, and a printed `http://localhost:3000/r/…`
 * leads nowhere. The built-in sandbox printer and a vendor's test key mail nothing, so their
 * campaigns (the demo's, the tests', a first try of Lob with a test key) are not held.
 */
export async function publicAddressProblem(
  db: Db,
  campaign: { workspaceId: string; fulfilmentContractId: string | null },
  base: string = baseUrl(),
): Promise<string | null> {
  if (!isLoopbackUrl(base) || !campaign.fulfilmentContractId) return null;
  // One read after another: going live asks this inside its transaction (one connection).
  const workspace = await db.workspace.findUnique({ where: { id: campaign.workspaceId }, select: { plan: true } });
  const contract = await db.fulfilmentContract.findFirst({
    where: { id: campaign.fulfilmentContractId, workspaceId: campaign.workspaceId },
    select: { vendor: true, connectionId: true },
  });
  if (workspace?.plan !== "paid" || !contract || contract.vendor === "sandbox") return null;
  // A vendor's test key (Lob's test_…) prints and mails nothing either: trying it from a laptop is fine.
  const connection = contract.connectionId
    ? await db.printVendorConnection.findFirst({
        where: { id: contract.connectionId, workspaceId: campaign.workspaceId },
        select: { mode: true },
      })
    : null;
  if (connection?.mode === "test") return null;
  return `The service's public address is ${base}, a loopback address: every printed QR code and link would lead there and no recipient could open it. Set NEXTAUTH_URL to the service's public https address (for example https://mail.yourcompany.com) and restart it, then go live.`;
}
