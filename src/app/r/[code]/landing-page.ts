import type { HostedPage } from "@/server/programme/responses/page-model";
import { REPLY_MAX_CHARS, REPLY_TO_MAX_CHARS } from "@/server/programme/responses/replies";
import { html, type SafeHtml } from "./html";
import { fieldHtml, type FormState, footerHtml, hiddenHtml, letterHtml, noticeHtml } from "./page-parts";
import { renderDocument } from "./page-shell";

type LandingPage = Extract<HostedPage, { kind: "landing_page" }>;

function siteLabel(url: string | null): string {
  if (!url) return "the site";
  try {
    return new URL(url).host.replace(/^www\./, "");
  } catch {
    return "the site";
  }
}

function callToAction(page: LandingPage, state: FormState, sent: boolean): SafeHtml {
  const company = page.brand.companyName;
  if (page.callToAction === "meeting") {
    return html`<h2 id="cta-title">Pick a time with ${company}</h2>
<p>Choose a time that suits you on ${company}’s scheduling page. It opens in a new tab.</p>
<div class="actions"><a class="button" href="/r/${page.code}/meeting" target="_blank" rel="noopener noreferrer">Book a meeting<span class="sr-only"> (opens in a new tab)</span></a></div>`;
  }
  if (page.callToAction === "visit_site") {
    return html`<h2 id="cta-title">See more from ${company}</h2>
<div class="actions"><a class="button" href="/r/${page.code}/visit">Visit ${siteLabel(page.destinationUrl)}</a></div>`;
  }
  if (sent) {
    return html`<h2 id="cta-title">Reply to ${company}</h2>
<div class="notice" role="status">Thank you. ${company} has your message.</div>
<p><a href="/r/${page.code}">Write another message</a></p>`;
  }
  const firstError = Object.keys(state.errors ?? {})[0];
  return html`<h2 id="cta-title">Reply to ${company}</h2>
${noticeHtml(state)}
<form method="post" action="/r/${page.code}">
${hiddenHtml({ action: "reply", token: state.token })}
${fieldHtml({ name: "message", label: "Your message", state, multiline: true, required: true, maxLength: REPLY_MAX_CHARS, hint: `Up to ${REPLY_MAX_CHARS.toLocaleString("en-US")} characters. It goes to ${company}.`, firstError: firstError === "message" })}
${fieldHtml({ name: "replyTo", label: "How should they reach you?", optional: true, state, maxLength: REPLY_TO_MAX_CHARS, autocomplete: "email", hint: "An email address or phone number, if not the one they have.", firstError: firstError === "replyTo" })}
<div class="actions"><button type="submit">Send reply</button></div>
</form>`;
}

/** A personal landing page: the recipient's message in the brand's look, and its one call to action. */
export function landingPageDocument(page: LandingPage, state: FormState, opts: { sent?: boolean } = {}) {
  const headline = page.message.headline || `A note for ${page.recipient.firstName || "you"}`;
  const content = html`<article class="card">${letterHtml(page, headline)}</article>
<section class="card" aria-labelledby="cta-title">${callToAction(page, state, opts.sent ?? false)}</section>`;
  return renderDocument({
    code: page.code,
    brand: page.brand,
    title: `${headline} · ${page.brand.companyName}`,
    content,
    footer: footerHtml(page),
  });
}
