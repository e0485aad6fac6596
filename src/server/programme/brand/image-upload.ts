import { Resvg } from "@resvg/resvg-js";
import { AppError } from "@/server/ground/errors";
import { declaredImageSize, pixelLimitProblem, pngDataProblem } from "@/server/ground/render/image-limits";
import { sanitiseSvg } from "@/server/ground/render/svg-sanitise";

export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
/** A data URL of at most 2 MB of image (base64 makes it a third longer). */
export const MAX_DATA_URL_CHARS = Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 64;

export interface CheckedImage {
  bytes: Buffer;
  type: "image/png" | "image/svg+xml";
  width: number;
  height: number;
}

const fail = (field: string, detail: string) =>
  new AppError("validation_failed", detail, { errors: [{ pointer: `/${field}`, detail }] });

/**
 * Checks an uploaded logo or signature: a PNG or SVG data URL, at most 2 MB, between 64 and 8000
 * pixels a side and at most 25 megapixels (MAX_IMAGE_PIXELS, read from the header before anything
 * decodes it). A PNG's pixel data is checked by zlib on the thread pool, never decoded on the
 * request's thread. An SVG is first reduced to a self-contained drawing (svg-sanitise.ts: every
 * file, path and outside reference dropped before any renderer reads it), then re-written from
 * resvg's own normalised tree (usvg), so only drawable shapes and embedded images are kept.
 */
export async function checkImageUpload(dataUrl: string, field: "logo" | "signature"): Promise<CheckedImage> {
  const what = field === "logo" ? "The logo" : "The signature";
  const m = /^data:(image\/png|image\/svg\+xml)(;charset=[\w-]+)?;base64,([A-Za-z0-9+/=\s]+)$/.exec(dataUrl);
  if (!m)
    throw fail(
      field,
      `${what} must be a PNG or SVG file, sent as a data URL (data:image/png;base64,… or data:image/svg+xml;base64,…).`,
    );
  const bytes = Buffer.from(m[3], "base64");
  if (bytes.length === 0) throw fail(field, `${what} is empty.`);
  if (bytes.length > MAX_IMAGE_BYTES)
    throw fail(field, `${what} is ${(bytes.length / 1024 / 1024).toFixed(1)} MB; upload at most 2 MB.`);
  if (m[1] === "image/png") {
    const size = declaredImageSize(bytes);
    if (size?.mime !== "image/png")
      throw fail(field, `${what} is not a PNG file (its first bytes are not a PNG signature).`);
    checkDimensions(field, what, size.width, size.height);
    if (await pngDataProblem(bytes)) throw fail(field, `${what} could not be read as a PNG: the file is damaged.`);
    return { bytes, type: "image/png", width: size.width, height: size.height };
  }
  let svg: string;
  let width: number;
  let height: number;
  try {
    const resvg = new Resvg(sanitiseSvg(bytes.toString("utf8")), { font: { loadSystemFonts: false } });
    svg = resvg.toString();
    width = Math.round(resvg.width);
    height = Math.round(resvg.height);
  } catch {
    throw fail(field, `${what} could not be read as an SVG drawing.`);
  }
  if (!/<(path|image|rect|circle|ellipse|line|polyline|polygon)\b/.test(svg))
    throw fail(
      field,
      `${what} draws nothing once scripts, text without outlines and external references are removed; export it with text converted to outlines.`,
    );
  if (!(width > 0 && height > 0 && width <= 20_000 && height <= 20_000))
    throw fail(field, `${what} needs a width and height (or a viewBox) between 1 and 20,000 units.`);
  return { bytes: Buffer.from(svg, "utf8"), type: "image/svg+xml", width, height };
}

function checkDimensions(field: string, what: string, width: number, height: number) {
  if (Math.max(width, height) < 64)
    throw fail(
      field,
      `${what} is ${width} × ${height} pixels; it needs at least 64 pixels on its longer side (300 or more prints sharply).`,
    );
  if (width > 8000 || height > 8000)
    throw fail(field, `${what} is ${width} × ${height} pixels; at most 8000 pixels a side.`);
  const tooMany = pixelLimitProblem(what, width, height);
  if (tooMany) throw fail(field, tooMany);
}
