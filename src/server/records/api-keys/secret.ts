import { sha256Hex } from "@/server/ground/platform/random";

/**
 * Key format: `dmk_` followed by 32 base62 characters (about 190 random bits). The prefix makes
 * a leaked key recognisable to secret scanners; only its SHA-256 hash is stored.
 */
export const API_KEY_PREFIX = "dmk_";
export const API_KEY_BODY_LENGTH = 32;
export const API_KEY_PATTERN = /^dmk_[0-9A-Za-z]{32}$/;

export function isWellFormedApiKey(secret: string): boolean {
  return API_KEY_PATTERN.test(secret);
}

export function hashApiKey(secret: string): string {
  return sha256Hex(secret);
}

/** What a list shows to recognise a key: the prefix and the first 4 characters. */
export function displayStart(secret: string): string {
  return secret.slice(0, API_KEY_PREFIX.length + 4);
}
