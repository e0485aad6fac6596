import { createHash } from "node:crypto";
import { Worker } from "node:worker_threads";
import { renderAsync, Resvg } from "@resvg/resvg-js";
import { sanitiseSvg } from "@/server/ground/render/svg-sanitise";
import { threadModule } from "@/server/ground/platform/thread-module";
import { MAX_IMAGE_PIXELS } from "./image-limits";
import { Lru } from "./lru";
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

/** Images by content hash (and print width): at most 200 of them and 256 MB. */
const assets = new Lru<string, ImageAsset>(200, (a) => a.bytes.length + 200, 256 * 1024 * 1024);
function remember(asset: ImageAsset): ImageAsset {
  assets.set(asset.id, asset);
  return asset;
}
const assetId = (bytes: Buffer, printWidthPx: number) =>
  createHash("sha256").update(bytes).update(String(printWidthPx)).digest("hex").slice(0, 24);

/**
 * An image for the renderer from stored PNG or JPEG bytes, or from an SVG rasterised at print
 * resolution. An SVG is sanitised again here (a logo stored before svg-sanitise.ts existed may still
 * name a file), and an image declaring more than MAX_IMAGE_PIXELS pixels is not used at all.
 */
export function imageAsset(bytes: Buffer, mime: string, printWidthPx = 1500): ImageAsset | null {
  const id = assetId(bytes, printWidthPx);
  const hit = assets.get(id);
  if (hit) return hit;
  if (mime === "image/svg+xml") {
    const svg = cleanSvg(bytes);
    if (svg === null) return null;
    return svgAsset(id, Buffer.from(new Resvg(svg, svgOptions(printWidthPx)).render().asPng()));
  }
  return rasterAsset(id, bytes);
}

/**
 * imageAsset for a request or a job: an SVG is rasterised by resvg on libuv's thread pool
 * (renderAsync), not on the event loop; PNG and JPEG bytes are only hashed and their header read.
 */
export async function imageAssetAsync(bytes: Buffer, mime: string, printWidthPx = 1500): Promise<ImageAsset | null> {
  const id = assetId(bytes, printWidthPx);
  const hit = assets.get(id);
  if (hit) return hit;
  if (mime === "image/svg+xml") {
    const svg = cleanSvg(bytes);
    if (svg === null) return null;
    return svgAsset(id, Buffer.from((await renderAsync(svg, svgOptions(printWidthPx))).asPng()));
  }
  return rasterAsset(id, bytes);
}

function cleanSvg(bytes: Buffer): string | null {
  try {
    return sanitiseSvg(bytes.toString("utf8"));
  } catch {
    return null;
  }
}
const svgOptions = (printWidthPx: number) => ({
  fitTo: { mode: "width" as const, value: printWidthPx },
  font: { loadSystemFonts: false },
});
function svgAsset(id: string, png: Buffer): ImageAsset {
  const size = imageSize(png)!;
  return remember({ id, bytes: png, mime: "image/png", widthPx: size.width, heightPx: size.height });
}
function rasterAsset(id: string, bytes: Buffer): ImageAsset | null {
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

/** Decoded images by content hash: at most 100 and 128 MB of deflated pixels. */
const pdfImages = new Lru<string, PdfImageData>(
  100,
  (i) => i.data.length + (i.alpha?.length ?? 0) + 200,
  128 * 1024 * 1024,
);
const decoding = new Map<string, Promise<PdfImageData>>();

/**
 * An image as the PDF embeds it, made once per image and process: a JPEG as it is; a PNG decoded
 * in the image thread (./image-thread.ts), off the event loop, while every document that needs it
 * waits for the one decoding.
 */
export function pdfImageData(asset: ImageAsset): Promise<PdfImageData> {
  const hit = pdfImages.get(asset.id);
  if (hit) return Promise.resolve(hit);
  let pending = decoding.get(asset.id);
  if (!pending) {
    pending = convert(asset)
      .then((img) => {
        pdfImages.set(asset.id, img);
        return img;
      })
      .finally(() => decoding.delete(asset.id));
    decoding.set(asset.id, pending);
  }
  return pending;
}

async function convert(asset: ImageAsset): Promise<PdfImageData> {
  if (asset.mime === "image/jpeg") {
    const components = jpegComponents(asset.bytes);
    return {
      width: asset.widthPx,
      height: asset.heightPx,
      filter: "DCTDecode",
      colorSpace: components === 1 ? "DeviceGray" : components === 4 ? "DeviceCMYK" : "DeviceRGB",
      data: asset.bytes,
      alpha: null,
    };
  }
  const worker = new Worker(await threadModule("src/server/ground/render/image-thread.ts", "render-image-thread"), {
    workerData: asset.bytes,
    stdout: false,
    stderr: false,
  });
  try {
    const reply = await new Promise<{ ok: true; img: PdfImageData } | { ok: false; message: string }>(
      (resolve, reject) => {
        worker.once("message", resolve);
        worker.once("error", reject);
        worker.once("exit", (code) =>
          reject(new Error(`The image thread stopped (exit code ${code}) before decoding the image.`)),
        );
      },
    );
    if (!reply.ok) throw new Error(`The image could not be decoded: ${reply.message}`);
    const { img } = reply;
    const buf = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
    return { ...img, data: buf(img.data), alpha: img.alpha ? buf(img.alpha) : null };
  } finally {
    void worker.terminate();
  }
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
