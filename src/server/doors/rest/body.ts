import { AppError } from "@/server/ground/errors";
import { readCappedBody } from "@/server/ground/platform/capped-body";
import { REST_BODY_LIMIT_BYTES } from "@/server/ground/rate-limits/limits";
import { unknownFieldMessage } from "@/server/ground/http/fields";

/**
 * Reads a REST request body as a JSON object: JSON content type (415), at most 16 KiB (413),
 * UTF-8 JSON (400), an object (400), and no member that is really a path parameter (422).
 */
export async function readJsonObject(req: Request, pathParams: string[]): Promise<Record<string, unknown>> {
  checkJsonContentType(req.headers.get("content-type"));
  return parseJsonObject(await readLimited(req), pathParams);
}

/** The content-type check of `readJsonObject` (415): throws unless the body is sent as JSON. */
export function checkJsonContentType(header: string | null): void {
  const type = header ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type.trim())) {
    throw new AppError(
      "unsupported_media_type",
      type
        ? `The body is sent as ${type.split(";")[0]}; send JSON with Content-Type: application/json.`
        : "The request has no Content-Type; send JSON with Content-Type: application/json.",
    );
  }
}

/** One decoder for every body: each call without `stream` starts afresh, a failed one too. */
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The body's bytes (at most the limit) as a JSON object, with the checks of `readJsonObject` after the size (400, 422). */
export function parseJsonObject(bytes: Uint8Array, pathParams: string[]): Record<string, unknown> {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new AppError("malformed_request", "The body is not valid UTF-8.");
  }
  if (!text.trim()) throw new AppError("malformed_request", "The body is empty; send a JSON object.");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AppError("malformed_request", `The body is not valid JSON (${(error as Error).message}).`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AppError("malformed_request", "The body must be a JSON object.");
  }
  const clashing = Object.keys(value).filter((k) => pathParams.includes(k));
  if (clashing.length) {
    throw new AppError(
      "validation_failed",
      `The body names ${clashing.join(", ")}, which belongs in the URL. Nothing was written.`,
      {
        errors: clashing.map((k) => ({
          pointer: `/${k}`,
          detail: `${unknownFieldMessage(k, ["the fields documented for this request"])} ${k} is part of the URL.`,
        })),
      },
    );
  }
  return value as Record<string, unknown>;
}

/** A body cut off by the client (400). */
export const unreadBody = () =>
  new AppError("malformed_request", "The body could not be read to its end (the connection ended while it was sent).");

/** A body over the limit (413). */
export const tooLargeBody = () =>
  new AppError("payload_too_large", `The body is larger than ${REST_BODY_LIMIT_BYTES / 1024} KiB.`);

async function readLimited(req: Request): Promise<Uint8Array> {
  const bytes = await readCappedBody(req, REST_BODY_LIMIT_BYTES, "drain").catch(() => {
    throw unreadBody();
  });
  if (!bytes) throw tooLargeBody();
  return bytes;
}
