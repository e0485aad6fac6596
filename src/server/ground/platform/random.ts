import { createHash, createHmac, randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniform base62 characters from a byte source (rejection sampling, no modulo bias). */
export function base62FromBytes(length: number, nextBytes: (n: number) => Buffer): string {
  let out = "";
  while (out.length < length) {
    for (const byte of nextBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** `length` random base62 characters (5.95 bits each). */
export function randomBase62(length: number): string {
  return base62FromBytes(length, randomBytes);
}

/** Deterministic base62 characters from a key and a label (HMAC-SHA256 in counter mode). */
export function derivedBase62(key: string, label: string, length: number): string {
  let counter = 0;
  return base62FromBytes(length, () => createHmac("sha256", key).update(`${label}#${counter++}`).digest());
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}
