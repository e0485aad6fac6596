import type { HostedPage } from "@/server/programme/responses/page-model";
import { giftClaimDocument } from "./gift-claim-page";
import { landingPageDocument } from "./landing-page";
import type { FormState } from "./page-parts";

/** The hosted page as an HTML response, with its headers (CSP, noindex, no-store). */
export function pageResponse(
  page: HostedPage,
  state: FormState,
  opts: { status?: number; sent?: boolean; headers?: Record<string, string> } = {},
): Response {
  const doc =
    page.kind === "landing_page"
      ? landingPageDocument(page, state, { sent: opts.sent })
      : giftClaimDocument(page, state);
  return new Response(doc.body, { status: opts.status ?? 200, headers: { ...doc.headers, ...opts.headers } });
}
