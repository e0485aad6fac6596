import { baseUrl } from "@/server/ground/platform/base-url";

const PUBLIC = { "Access-Control-Allow-Origin": "*", "Cache-Control": "public, max-age=300" };

/** A published JSON document: open to every origin, cacheable for five minutes. */
export const jsonDocument = (build: (base: string) => unknown) => () =>
  Response.json(build(baseUrl()), { headers: PUBLIC });

/** A published text document with its media type (text/markdown, text/plain). */
export const textDocument = (build: (base: string) => string, type: string) => () =>
  new Response(build(baseUrl()), { headers: { ...PUBLIC, "Content-Type": `${type}; charset=utf-8` } });
