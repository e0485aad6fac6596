import type { HostedPage } from "@/server/programme/responses/page-model";
import { html, type SafeHtml } from "./html";

/** What a page shows around its forms: typed values to keep, errors per field, a notice, the form token. */
export interface FormState {
  token: string;
  values?: Record<string, string>;
  errors?: Record<string, string>;
  notice?: { kind: "info" | "problem"; text: string };
}

export const longDate = (d: Date) => d.toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });

/** The recipient's message as approved: blank lines separate paragraphs, single newlines break lines. */
export function messageHtml(body: string): SafeHtml {
  const paragraphs = body
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return html`<div class="message">${paragraphs.map((p) => html`<p>${p.split("\n").map((line, i) => (i ? html`<br>${line}` : line))}</p>`)}</div>`;
}

/** The personal part every page starts with: who it is for, the headline, the message and the sign-off. */
export function letterHtml(page: HostedPage, headline: string): SafeHtml {
  const { recipient, message } = page;
  const who = `${recipient.firstName} ${recipient.lastName}`.trim();
  return html`<p class="eyebrow">For ${who}${recipient.company ? html`, ${recipient.company}` : ""}</p>
<h1>${headline}</h1>
${message.body ? messageHtml(message.body) : ""}
${message.signOff ? html`<p class="signoff">${message.signOff}</p>` : ""}`;
}

export function noticeHtml(state: FormState | undefined): SafeHtml {
  if (!state?.notice) return html``;
  const problem = state.notice.kind === "problem";
  return html`<div class="notice${problem ? " problem" : ""}" role="${problem ? "alert" : "status"}">${state.notice.text}</div>`;
}

/**
 * A labelled text field with its hint and error (aria-describedby, aria-invalid); the first
 * field with an error takes the focus when the page loads again.
 */
export function fieldHtml(p: {
  name: string;
  label: string;
  state: FormState | undefined;
  value?: string | null;
  optional?: boolean;
  hint?: string;
  autocomplete?: string;
  maxLength: number;
  multiline?: boolean;
  required?: boolean;
  firstError?: boolean;
}): SafeHtml {
  const error = p.state?.errors?.[p.name];
  const value = p.state?.values?.[p.name] ?? p.value ?? "";
  const describedBy = [p.hint ? `${p.name}-hint` : "", error ? `${p.name}-error` : ""].filter(Boolean).join(" ");
  const common = html`id="${p.name}" name="${p.name}" maxlength="${p.maxLength}"${p.required ? html` required` : ""}${describedBy ? html` aria-describedby="${describedBy}"` : ""}${error ? html` aria-invalid="true"` : ""}${error && p.firstError ? html` autofocus` : ""}${p.autocomplete ? html` autocomplete="${p.autocomplete}"` : ""}`;
  return html`<label for="${p.name}">${p.label}${p.optional ? html` <span class="optional">(optional)</span>` : ""}</label>
${p.multiline ? html`<textarea ${common} rows="6">${value}</textarea>` : html`<input type="text" ${common} value="${value}">`}
${p.hint ? html`<p class="hint" id="${p.name}-hint">${p.hint}</p>` : ""}
${error ? html`<p class="error" id="${p.name}-error">${error}</p>` : ""}`;
}

export function hiddenHtml(fields: Record<string, string>): SafeHtml {
  return html`${Object.entries(fields).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}`;
}

export function footerHtml(page: HostedPage): SafeHtml {
  return html`<p>Made for ${page.recipient.firstName || "you"} by ${page.brand.companyName}. Only people with this page’s link can open it.</p>`;
}
