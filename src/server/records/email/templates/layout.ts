import { SERVICE_NAME } from "@/server/ground/platform/version";

/** What every message says, in order; rendered as a plain-text part and an HTML part that say the same. */
export interface EmailContent {
  /** The line an inbox shows beside the subject. */
  preview: string;
  heading: string;
  paragraphs: string[];
  /** Label and value pairs (a card's cost, a week's figures), shown as a small table. */
  facts?: [string, string][];
  /** The one thing to do, with the exact page's link. */
  action?: { label: string; url: string };
  /** Paragraphs after the action (an expiry, what happens if nothing is done). */
  after?: string[];
  /** Why the person gets this message. */
  footer: string[];
  /** A notification's unsubscribe page (signed; works without signing in). */
  unsubscribeUrl?: string;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** The plain-text part: readable as it is, every link written out. */
function renderText(c: EmailContent): string {
  const lines = [SERVICE_NAME, "", c.heading, ""];
  for (const p of c.paragraphs) lines.push(p, "");
  if (c.facts?.length) {
    const width = Math.max(...c.facts.map(([label]) => label.length));
    for (const [label, value] of c.facts) lines.push(`${`${label}:`.padEnd(width + 1)} ${value}`);
    lines.push("");
  }
  if (c.action) lines.push(`${c.action.label}:`, c.action.url, "");
  for (const p of c.after ?? []) lines.push(p, "");
  lines.push("--");
  lines.push(...c.footer);
  if (c.unsubscribeUrl) lines.push(`Turn these emails off: ${c.unsubscribeUrl}`);
  return `${lines.join("\n")}\n`;
}

// Colours chosen for a contrast of at least 4.5:1 on their backgrounds (text #1f2937 on white 14.7:1,
// muted #4b5563 on white 7.6:1, white on the button's #3b49c6 6.9:1).
const INK = "#1f2937";
const MUTED = "#4b5563";
const ACCENT = "#3b49c6";
const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

/** The HTML part: one centred column in tables with inline styles, as mail clients need. */
function renderHtml(c: EmailContent): string {
  const p = (text: string, style = "") =>
    `<p style="margin:0 0 16px;font:15px/1.5 ${FONT};color:${INK};${style}">${escapeHtml(text)}</p>`;
  const facts = c.facts?.length
    ? `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 20px;border-collapse:collapse;width:100%">${c.facts
        .map(
          ([label, value]) =>
            `<tr><td style="padding:6px 12px 6px 0;font:14px/1.4 ${FONT};color:${MUTED};white-space:nowrap;vertical-align:top;border-bottom:1px solid #e5e7eb">${escapeHtml(label)}</td><td style="padding:6px 0;font:600 14px/1.4 ${FONT};color:${INK};border-bottom:1px solid #e5e7eb">${escapeHtml(value)}</td></tr>`,
        )
        .join("")}</table>`
    : "";
  const action = c.action
    ? `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:4px 0 16px"><tr><td style="border-radius:6px;background:${ACCENT}"><a href="${escapeHtml(c.action.url)}" style="display:inline-block;padding:12px 20px;font:600 15px/1 ${FONT};color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(c.action.label)}</a></td></tr></table>
${p(`Or open this link: ${c.action.url}`, `font-size:13px;color:${MUTED};word-break:break-all`)}`
    : "";
  const footer = [
    ...c.footer.map((line) => escapeHtml(line)),
    ...(c.unsubscribeUrl
      ? [`<a href="${escapeHtml(c.unsubscribeUrl)}" style="color:${MUTED}">Turn these emails off</a>`]
      : []),
  ].join("<br>");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(c.heading)}</title>
</head>
<body style="margin:0;padding:0;background:#f3f4f6">
<div style="display:none;max-height:0;overflow:hidden;opacity:0">${escapeHtml(c.preview)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px">
<tr><td style="padding:0 4px 12px;font:700 15px/1.2 ${FONT};color:${INK}">${escapeHtml(SERVICE_NAME)}</td></tr>
<tr><td style="background:#ffffff;border:1px solid #e5e7eb;border-radius:8px;padding:28px 28px 12px">
<h1 style="margin:0 0 16px;font:700 20px/1.3 ${FONT};color:${INK}">${escapeHtml(c.heading)}</h1>
${c.paragraphs.map((t) => p(t)).join("\n")}
${facts}
${action}
${(c.after ?? []).map((t) => p(t)).join("\n")}
</td></tr>
<tr><td style="padding:16px 4px;font:13px/1.5 ${FONT};color:${MUTED}">${footer}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

export function renderLayout(content: EmailContent): { text: string; html: string } {
  return { text: renderText(content), html: renderHtml(content) };
}
