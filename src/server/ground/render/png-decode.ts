import { promisify } from "node:util";
import { deflate } from "node:zlib";
import PNG from "png-js";
import type { PdfImageData } from "./images";

const deflateAsync = promisify(deflate);

/**
 * A PNG as the PDF embeds it: the pixels decoded (png-js: unfiltering, palettes, 16-bit and
 * interlaced images) and split into deflated RGB and, when any pixel is not opaque, a deflated
 * soft mask. All CPU: it runs in the image thread (./image-thread.ts), never on a request's
 * event loop.
 */
export async function decodePngForPdf(bytes: Uint8Array): Promise<PdfImageData> {
  const png = new PNG(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const rgba = await new Promise<Uint8Array>((resolve) => png.decode(resolve));
  const n = png.width * png.height;
  const rgb = Buffer.alloc(n * 3);
  const alpha = Buffer.alloc(n);
  let opaque = true;
  for (let i = 0; i < n; i++) {
    rgb[i * 3] = rgba[i * 4];
    rgb[i * 3 + 1] = rgba[i * 4 + 1];
    rgb[i * 3 + 2] = rgba[i * 4 + 2];
    alpha[i] = rgba[i * 4 + 3];
    if (alpha[i] !== 255) opaque = false;
  }
  const [data, mask] = await Promise.all([deflateAsync(rgb), opaque ? Promise.resolve(null) : deflateAsync(alpha)]);
  return { width: png.width, height: png.height, filter: "FlateDecode", colorSpace: "DeviceRGB", data, alpha: mask };
}
