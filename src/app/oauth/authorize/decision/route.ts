import { getSessionUser } from "@/server/records/auth/session";
import { getDb } from "@/server/ground/db";
import { decideConsent } from "@/server/records/oauth/consent";
import { readForm } from "@/server/records/oauth/http";
import { baseUrl } from "@/server/ground/platform/base-url";

export const dynamic = "force-dynamic";

function page(status: number, message: string) {
  return new Response(
    `<!doctype html><meta charset="utf-8"><title>Agent not connected</title><main style="font-family:system-ui;max-width:36rem;margin:4rem auto"><h1>Agent not connected</h1><p>${message.replace(/[<>&]/g, "")}</p></main>`,
    {
      status,
      headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
    },
  );
}

/** The consent form posts here. Same-origin only (Origin checked, csrf token bound to the person). */
export async function POST(req: Request) {
  const base = baseUrl();
  const origin = req.headers.get("origin");
  if (origin && origin !== new URL(base).origin) return page(403, "This form can only be sent from this site.");
  const user = await getSessionUser();
  if (!user) return page(401, "Your session ended. Start the connection again from your agent.");
  let form: Record<string, string>;
  try {
    form = await readForm(req);
  } catch (error) {
    return page(400, (error as Error).message);
  }
  const result = await decideConsent(getDb(), base, user, form);
  if (result.location)
    return new Response(null, { status: 303, headers: { Location: result.location, "Cache-Control": "no-store" } });
  return page(result.status, result.message ?? "The request was not valid.");
}
