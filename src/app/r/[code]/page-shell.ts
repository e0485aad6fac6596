import { createHash } from "node:crypto";
import type { PageBrand } from "@/server/programme/responses/page-model";
import { html, SafeHtml } from "./html";
import { pageTheme, type PageTheme } from "./theme";

/**
 * The headers of every hosted page answer: not indexed, not cached, not framed, a referrer only to
 * this service (the code never leaks to the sites it links to; the browser still sends the page's
 * Origin with its forms, which the post checks), and a Content-Security-Policy that allows no script
 * at all, only this page's own stylesheet (by hash), images and fonts from this service, and
 * forms posted back to it.
 */
export function pageHeaders(styleHash: string | null): Record<string, string> {
  const csp = [
    "default-src 'none'",
    "script-src 'none'",
    styleHash ? `style-src 'sha256-${styleHash}'` : "style-src 'none'",
    "img-src 'self'",
    "font-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  return {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    "Referrer-Policy": "same-origin",
    "X-Robots-Tag": "noindex, nofollow, noarchive",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": csp,
  };
}

function styles(t: PageTheme): string {
  return `${t.fontFaces}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:#f4f5f7;color:${t.text};font:1rem/1.55 ${t.body}}
.skip{position:absolute;left:-999px;top:0;background:#fff;color:${t.accent};padding:.5rem 1rem}
.skip:focus{left:.5rem;top:.5rem;z-index:2}
.bar{height:6px;background:${t.primary}}
header{max-width:40rem;margin:0 auto;padding:1rem 1.25rem .25rem;display:flex;align-items:center;min-height:3.5rem}
header img{max-height:2.25rem;max-width:12rem;width:auto;height:auto;display:block}
.wordmark{font:700 1.125rem/1.2 ${t.heading};color:${t.primary}}
main{max-width:40rem;margin:0 auto;padding:.5rem 1rem 2rem}
.card{background:#fff;border-radius:12px;padding:1.5rem 1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.08);margin-bottom:1rem}
.eyebrow{margin:0 0 .5rem;font-size:.9375rem;color:#4a5058}
h1{font:700 1.625rem/1.25 ${t.heading};color:${t.primary};margin:0 0 1rem;overflow-wrap:anywhere}
h2{font:700 1.25rem/1.3 ${t.heading};color:${t.primary};margin:0 0 .75rem}
.message p{margin:0 0 .875rem;overflow-wrap:anywhere}
.signoff{font:400 1.75rem/1.2 ${t.hand};margin:.5rem 0 0;color:${t.text}}
a{color:${t.accent}}
.button,button{display:flex;align-items:center;justify-content:center;width:100%;min-height:3rem;padding:.75rem 1.25rem;border:2px solid ${t.primary};border-radius:8px;background:${t.primary};color:#fff;font:700 1.0625rem/1.2 ${t.body};text-decoration:none;cursor:pointer}
button.secondary{background:#fff;color:${t.primary}}
.button:focus-visible,button:focus-visible,input:focus-visible,textarea:focus-visible,select:focus-visible,.skip:focus-visible{outline:3px solid ${t.accent};outline-offset:2px}
label,legend{display:block;font-weight:700;margin:1rem 0 .375rem}
.optional{font-weight:400;color:#4a5058}
input[type=text],input:not([type]),textarea,select{display:block;width:100%;font:1rem/1.4 ${t.body};color:#1f2328;padding:.75rem;border:1px solid #6b7280;border-radius:8px;background:#fff}
textarea{min-height:8rem;resize:vertical}
[aria-invalid=true]{border-color:#b3261e;border-width:2px}
.hint{margin:.375rem 0 0;font-size:.875rem;color:#4a5058}
.error{margin:.375rem 0 0;font-size:.9375rem;color:#b3261e;font-weight:700}
.notice{border-left:4px solid ${t.primary};background:#f4f5f7;padding:.75rem 1rem;margin:0 0 1rem;border-radius:4px}
.notice.problem{border-color:#b3261e}
.actions{margin-top:1.25rem}
fieldset{border:0;padding:0;margin:0}
.gift{display:flex;gap:.75rem;align-items:flex-start;border:1px solid #d0d4da;border-radius:10px;padding:.875rem;margin:.5rem 0}
.gift input{width:1.375rem;height:1.375rem;margin:.125rem 0 0;flex:none;accent-color:${t.primary}}
.gift label{margin:0;font-weight:400}
.gift strong{display:block}
.address{font-style:normal;line-height:1.5;margin:.5rem 0 0}
.row{display:grid;gap:0 .75rem}
footer{max-width:40rem;margin:0 auto;padding:0 1.25rem 2rem;font-size:.875rem;color:#4a5058}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (min-width:40rem){main{padding-top:1rem}.card{padding:2rem 2.25rem}h1{font-size:2rem}.button,button{width:auto;display:inline-flex}.row{grid-template-columns:1fr 1fr}}`;
}

/** A whole hosted page: the brand's bar and logo (or name), the content, and a short footer. */
export function renderDocument(p: {
  code: string;
  brand: PageBrand;
  title: string;
  content: SafeHtml;
  footer: SafeHtml;
}): { body: string; headers: Record<string, string> } {
  // Built from checked colours (#rrggbb) and known font names only; hashed for the CSP exactly as sent.
  const css = styles(pageTheme(p.brand));
  const hash = createHash("sha256").update(css).digest("base64");
  const logo = p.brand.hasLogo
    ? html`<img src="/r/${p.code}/logo" alt="${p.brand.companyName}">`
    : html`<span class="wordmark">${p.brand.companyName}</span>`;
  const doc = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow, noarchive">
<meta name="referrer" content="same-origin">
<title>${p.title}</title>
<style>${new SafeHtml(css)}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<div class="bar"></div>
<header>${logo}</header>
<main id="main">${p.content}</main>
<footer>${p.footer}</footer>
</body>
</html>`;
  return { body: doc.value, headers: pageHeaders(hash) };
}
