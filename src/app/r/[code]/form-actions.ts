import { getDb } from "@/server/ground/db";
import { clientAddress } from "@/server/ground/http/client-address";
import { baseUrl } from "@/server/ground/platform/base-url";
import { readCappedBody } from "@/server/ground/platform/capped-body";
import { unstorableReason } from "@/server/ground/platform/stored-text";
import { LIMITS } from "@/server/ground/rate-limits/limits";
import { consume } from "@/server/ground/rate-limits/service";
import { checkFormToken, issueFormToken } from "@/server/programme/responses/form-token";
import { claimGift, declineGift } from "@/server/programme/responses/gift-claims";
import { type HostedPage, resolveLink } from "@/server/programme/responses/page-model";
import { sendReply, ZReplyInput } from "@/server/programme/responses/replies";
import { ZShippingAddressInput } from "@/server/programme/responses/shipping-address";
import { notFoundResponse, plainResponse } from "./not-found";
import type { FormState } from "./page-parts";
import { pageResponse } from "./render-page";

/** Largest form a hosted page accepts (a reply of 2,000 characters, encoded, fits several times). */
export const PAGE_FORM_MAX_BYTES = 16 * 1024;

async function readForm(req: Request): Promise<Record<string, string> | null> {
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  if (!type.startsWith("application/x-www-form-urlencoded")) return null;
  const bytes = await readCappedBody(req, PAGE_FORM_MAX_BYTES, "drain").catch(() => null);
  if (!bytes) return null;
  const form: Record<string, string> = Object.create(null);
  for (const [k, v] of new URLSearchParams(new TextDecoder().decode(bytes))) {
    if (unstorableReason(k) || unstorableReason(v)) return null;
    if (!(k in form)) form[k] = v;
  }
  return form;
}

/**
 * A post that a browser says came from another site (Origin or Sec-Fetch-Site), never from the
 * page itself. "null" (an opaque origin, which some privacy settings send) says nothing either way:
 * Sec-Fetch-Site and the form's token decide then.
 */
function crossSite(req: Request): boolean {
  const origin = req.headers.get("origin");
  if (origin && origin !== "null" && origin !== new URL(baseUrl()).origin) return true;
  return req.headers.get("sec-fetch-site") === "cross-site";
}

const issues = (error: { issues: { path: PropertyKey[]; message: string }[] }) => {
  const errors: Record<string, string> = {};
  for (const i of error.issues) {
    const key = String(i.path[0] ?? "form");
    errors[key] ??= i.message;
  }
  return errors;
};

const retryAfter = (seconds: number) => ({ "Retry-After": String(seconds) });

/**
 * A hosted page's form post (reply, claim or decline). In order: a post from another site is
 * refused; the address's limit is counted; the body must be a small form; the code must lead to a
 * page; the form's token must be the page's own and fresh; the code's limit is counted; then the
 * fields are checked and the action runs. Every refusal writes nothing (beyond the limits'
 * counters) and answers a 4xx: the page again with what was typed and why, or a plain sentence.
 */
export async function handleFormPost(req: Request, code: string): Promise<Response> {
  if (crossSite(req)) return plainResponse(403, "Not sent", "This form can only be sent from its own page.");
  const db = getDb();
  const now = new Date();
  const byAddress = await consume(db, `response-form-ip:${clientAddress(req.headers)}`, LIMITS.responseFormPerIp, now);
  if (!byAddress.allowed)
    return plainResponse(
      429,
      "Please wait",
      `Too many forms were sent from your network. Try again in ${Math.ceil(byAddress.resetSeconds / 60)} minutes.`,
      retryAfter(byAddress.resetSeconds),
    );

  const form = await readForm(req);
  if (!form)
    return plainResponse(400, "Not sent", "The form could not be read. Go back to the page and send it again.");
  const target = await resolveLink(db, code, now);
  if (target?.kind !== "page") return notFoundResponse();
  const page = target.page;
  const again = async (status: number, extra: Omit<FormState, "token">, headers?: Record<string, string>) =>
    pageResponse(page, { token: await issueFormToken(db, code, now), values: form, ...extra }, { status, headers });

  const token = await checkFormToken(db, code, form.token, now);
  if (!token.ok) {
    const text =
      token.reason === "expired"
        ? "This page was open for a long time, so the form expired. Check what you wrote and send it again."
        : "This form was not sent from its page. Check what you wrote and send it again.";
    return again(403, { notice: { kind: "problem", text } });
  }
  const byCode = await consume(db, `response-form-code:${code}`, LIMITS.responseFormPerCode, now);
  if (!byCode.allowed) {
    return again(
      429,
      {
        notice: {
          kind: "problem",
          text: `This page received many forms in a short time. Try again in ${Math.ceil(byCode.resetSeconds / 60)} minutes.`,
        },
      },
      retryAfter(byCode.resetSeconds),
    );
  }

  const userAgent = req.headers.get("user-agent");
  const action = form.action;
  if (page.kind === "landing_page" && page.callToAction === "reply" && action === "reply") {
    const input = ZReplyInput.safeParse({ message: form.message ?? "", replyTo: form.replyTo ?? "" });
    if (!input.success)
      return again(422, {
        errors: issues(input.error),
        notice: { kind: "problem", text: "Your message was not sent: see below." },
      });
    const sent = await sendReply(db, { code, nonce: token.token.nonce, input: input.data, userAgent, now });
    if (sent.kind === "gone") return notFoundResponse();
    return pageResponse(page, { token: "" }, { sent: true });
  }
  if (page.kind === "gift_claim" && (action === "claim" || action === "decline")) {
    return giftDecision(page, form, action, userAgent, now, again);
  }
  return plainResponse(400, "Not sent", "This page has no such form. Go back to the page and use its buttons.");
}

async function giftDecision(
  page: Extract<HostedPage, { kind: "gift_claim" }>,
  form: Record<string, string>,
  action: "claim" | "decline",
  userAgent: string | null,
  now: Date,
  again: (status: number, extra: Omit<FormState, "token">) => Promise<Response>,
): Promise<Response> {
  const db = getDb();
  let result: Awaited<ReturnType<typeof declineGift>> | Awaited<ReturnType<typeof claimGift>>;
  if (action === "decline") result = await declineGift(db, { code: page.code, userAgent, now });
  else {
    const address = ZShippingAddressInput.safeParse({
      addressLine1: form.addressLine1 ?? "",
      addressLine2: form.addressLine2 ?? "",
      city: form.city ?? "",
      region: form.region ?? "",
      postalCode: form.postalCode ?? "",
      country: form.country ?? "",
    });
    if (!address.success)
      return again(422, {
        errors: issues(address.error),
        notice: { kind: "problem", text: "Your gift is not claimed yet: check the address below." },
      });
    result = await claimGift(db, { code: page.code, giftItem: form.gift ?? "", address: address.data, userAgent, now });
  }
  if (result.kind === "gone") return notFoundResponse();
  if (result.kind === "invalid")
    return again(422, {
      errors: result.errors,
      notice: { kind: "problem", text: "Your gift is not claimed yet: check the fields below." },
    });
  // Decided now, or before: the page shows the claim as it stands.
  return new Response(null, { status: 303, headers: { Location: `/r/${page.code}`, "Cache-Control": "no-store" } });
}
