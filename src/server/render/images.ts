import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";
import { Resvg } from "@resvg/resvg-js";
import PNG from "png-js";
import { sanitiseSvg } from "@/server/render/svg-sanitise";
import { MAX_IMAGE_PIXELS } from "./image-limits";
import type { ImageAsset } from "./scene";

/** Width and height of a PNG (from its header) or a JPEG (from its first frame header); null if neither. */
export function imageSize(bytes: Buffer): { mime: "image/png" | "image/jpeg"; width: number; height: number } | null {
  if (bytes.length > 24 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.toString("latin1", 12, 16) === "IHDR") {
    return { mime: "image/png", width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length > 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    let o = 2;
    while (o + 9 < bytes.length) {
      if (bytes[o] !== 0xff) return null;
      const marker = bytes[o + 1];
      const len = bytes.readUInt16BE(o + 2);
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
        return { mime: "image/jpeg", height: bytes.readUInt16BE(o + 5), width: bytes.readUInt16BE(o + 7) };
      }
      o += 2 + len;
    }
  }
  return null;
}

const assets = new Map<string, ImageAsset>();
function remember(asset: ImageAsset): ImageAsset {
  if (assets.size > 200) assets.clear();
  assets.set(asset.id, asset);
  return asset;
}

/**
 * An image for the renderer from stored PNG or JPEG bytes, or from an SVG rasterised at print
 * resolution. An SVG is sanitised again here (a logo stored before svg-sanitise.ts existed may still
 * name a file), and an image declaring more than MAX_IMAGE_PIXELS pixels is not used at all.
 */
export function imageAsset(bytes: Buffer, mime: string, printWidthPx = 1500): ImageAsset | null {
  const id = createHash("sha256").update(bytes).update(String(printWidthPx)).digest("hex").slice(0, 24);
  const hit = assets.get(id);
  if (hit) return hit;
  if (mime === "image/svg+xml") {
    let svg: string;
    try {
      svg = sanitiseSvg(bytes.toString("utf8"));
    } catch {
      return null;
    }
    const png = Buffer.from(new Resvg(svg, { fitTo: { mode: "width", value: printWidthPx }, font: { loadSystemFonts: false } }).render().asPng());
    const size = imageSize(png)!;
    return remember({ id, bytes: png, mime: "image/png", widthPx: size.width, heightPx: size.height });
  }
  const size = imageSize(bytes);
  if (!size || size.width * size.height > MAX_IMAGE_PIXELS) return null;
  return remember({ id, bytes, mime: size.mime, widthPx: size.width, heightPx: size.height });
}

/** An image as the PDF embeds it: JPEG as is; PNG decoded once into deflated RGB with a soft mask for its transparency. */
export interface PdfImageData {
  width: number;
  height: number;
  filter: "DCTDecode" | "FlateDecode";
  colorSpace: "DeviceRGB" | "DeviceGray" | "DeviceCMYK";
  data: Buffer;
  alpha: Buffer | null;
}

const pdfImages = new Map<string, Promise<PdfImageData>>();
export function pdfImageData(asset: ImageAsset): Promise<PdfImageData> {
  let entry = pdfImages.get(asset.id);
  if (!entry) {
    entry = convert(asset);
    if (pdfImages.size > 200) pdfImages.clear();
    pdfImages.set(asset.id, entry);
  }
  return entry;
}

async function convert(asset: ImageAsset): Promise<PdfImageData> {
  if (asset.mime === "image/jpeg") {
    const components = jpegComponents(asset.bytes);
    return { width: asset.widthPx, height: asset.heightPx, filter: "DCTDecode", colorSpace: components === 1 ? "DeviceGray" : components === 4 ? "DeviceCMYK" : "DeviceRGB", data: asset.bytes, alpha: null };
  }
  const png = new PNG(asset.bytes);
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
  return { width: png.width, height: png.height, filter: "FlateDecode", colorSpace: "DeviceRGB", data: deflateSync(rgb), alpha: opaque ? null : deflateSync(alpha) };
}

function jpegComponents(bytes: Buffer): number {
  let o = 2;
  while (o + 9 < bytes.length) {
    const marker = bytes[o + 1];
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) return bytes[o + 9];
    o += 2 + bytes.readUInt16BE(o + 2);
  }
  return 3;
}
