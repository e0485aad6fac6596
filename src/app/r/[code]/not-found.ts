import { pageHeaders } from "./page-shell";

/**
 * The one answer for every code that leads nowhere (unknown, malformed, expired, never sent):
 * the same bytes and headers whatever the reason, so a response reveals nothing about which codes exist.
 */
export function notFoundResponse(): Response {
  return new Response(
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow"><title>Not found</title></head><body><h1>Not found</h1><p>This link does not lead anywhere.</p></body></html>',
    { status: 404, headers: pageHeaders(null) },
  );
}

/** A short plain page for a refused request (a form from another site, an unreadable body, too many posts). */
export function plainResponse(
  status: number,
  title: string,
  sentence: string,
  extra: Record<string, string> = {},
): Response {
  const text = (s: string) => s.replace(/[&<>"']/g, "");
  return new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow"><title>${text(title)}</title></head><body><h1>${text(title)}</h1><p>${text(sentence)}</p></body></html>`,
    { status, headers: { ...pageHeaders(null), ...extra } },
  );
}
