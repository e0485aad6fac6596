import { inflate } from "node:zlib";

/**
 * Pixel-count limits read from an image's header before anything decodes it. A compressed image can
 * declare far more pixels than its size suggests (a 187 KB PNG of 8000 × 8000 pixels decodes into
 * 256 MB of RGBA), so the count is checked first and an image over it is never decoded.
 */
export const MAX_IMAGE_PIXELS = 25_000_000;

export type DeclaredImageType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** The type and the width and height an image's header declares (PNG, JPEG, GIF, WebP), or null when the header is none of those. */
export function declaredImageSize(bytes: Buffer): { mime: DeclaredImageType; width: number; height: number } | null {
  if (
    bytes.length >= 24 &&
    bytes.readUInt32BE(0) === 0x89504e47 &&
    bytes.readUInt32BE(4) === 0x0d0a1a0a &&
    bytes.toString("latin1", 12, 16) === "IHDR"
  ) {
    return { mime: "image/png", width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length > 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    let o = 2;
    while (o + 9 < bytes.length) {
      if (bytes[o] !== 0xff) return null;
      const marker = bytes[o + 1];
      if (marker === 0xff) {
        o += 1;
        continue;
      }
      const len = bytes.readUInt16BE(o + 2);
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
        return { mime: "image/jpeg", height: bytes.readUInt16BE(o + 5), width: bytes.readUInt16BE(o + 7) };
      o += 2 + len;
    }
    return null;
  }
  if (bytes.length >= 10 && /^GIF8[79]a$/.test(bytes.toString("latin1", 0, 6)))
    return { mime: "image/gif", width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  if (bytes.length >= 30 && bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "WEBP") {
    const chunk = bytes.toString("latin1", 12, 16);
    if (chunk === "VP8X")
      return { mime: "image/webp", width: 1 + bytes.readUIntLE(24, 3), height: 1 + bytes.readUIntLE(27, 3) };
    if (chunk === "VP8L") {
      const b = bytes.readUInt32LE(21);
      return { mime: "image/webp", width: 1 + (b & 0x3fff), height: 1 + ((b >>> 14) & 0x3fff) };
    }
    if (chunk === "VP8 ")
      return { mime: "image/webp", width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  }
  return null;
}

/** The sentence refusing an image that declares more pixels than MAX_IMAGE_PIXELS, or null when it declares no more. */
export function pixelLimitProblem(what: string, width: number, height: number): string | null {
  if (width * height <= MAX_IMAGE_PIXELS) return null;
  const mp = (n: number) => `${(n / 1_000_000).toLocaleString("en-US", { maximumFractionDigits: 1 })} megapixels`;
  return `${what} is ${width} × ${height} pixels (${mp(width * height)}); at most ${mp(MAX_IMAGE_PIXELS)}. Export it smaller: 300 pixels per inch of print is plenty.`;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/**
 * Checks that a PNG's pixel data is whole without decoding it on the event loop: its chunks are
 * walked, and its compressed pixel data is inflated by zlib on Node's thread pool into exactly
 * the bytes its header declares (never more: the output is capped at that). Returns what is
 * wrong, or null. Call it only after the header's pixel count passed MAX_IMAGE_PIXELS.
 */
export async function pngDataProblem(bytes: Buffer): Promise<string | null> {
  const size = declaredImageSize(bytes);
  if (size?.mime !== "image/png") return "it is not a PNG file";
  const depth = bytes[24];
  const channels = CHANNELS[bytes[25]];
  const interlaced = bytes[28] === 1;
  if (!channels || ![1, 2, 4, 8, 16].includes(depth) || size.width === 0 || size.height === 0)
    return "its header is not valid";
  const idat: Buffer[] = [];
  let o = 8;
  let ended = false;
  while (o + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(o);
    const type = bytes.toString("latin1", o + 4, o + 8);
    if (o + 12 + length > bytes.length) return "it ends in the middle of a chunk";
    if (type === "IDAT") idat.push(bytes.subarray(o + 8, o + 8 + length));
    o += 12 + length;
    if (type === "IEND") {
      ended = true;
      break;
    }
  }
  if (!ended || !idat.length) return "it has no image data or no end";
  const rowBytes = (w: number) => 1 + Math.ceil((w * channels * depth) / 8);
  let expected = 0;
  if (!interlaced) expected = size.height * rowBytes(size.width);
  else
    for (const [x0, y0, dx, dy] of ADAM7) {
      const w = Math.ceil((size.width - x0) / dx);
      const h = Math.ceil((size.height - y0) / dy);
      if (w > 0 && h > 0) expected += h * rowBytes(w);
    }
  const inflated = await new Promise<Buffer | null>((resolve) =>
    inflate(Buffer.concat(idat), { maxOutputLength: expected }, (error, out) => resolve(error ? null : out)),
  );
  if (!inflated || inflated.length !== expected) return "its pixel data is damaged or incomplete";
  return null;
}
