import { describe, expect, it } from "vitest";
import { displayStart, hashApiKey, isWellFormedApiKey } from "@/server/records/api-keys/secret";
import { newResponseCode, newSid, RESPONSE_CODE_PATTERN, SID_PATTERN } from "@/server/programme/fulfilment/identifiers";
import { derivedBase62, randomBase62 } from "./random";

describe("random identifiers", () => {
  it("makes base62 strings of the asked length, all different", () => {
    const seen = new Set(Array.from({ length: 2000 }, () => randomBase62(16)));
    expect(seen.size).toBe(2000);
    for (const s of seen) expect(s).toMatch(/^[0-9A-Za-z]{16}$/);
  });

  it("uses every base62 character roughly evenly (no modulo bias)", () => {
    const counts = new Map<string, number>();
    for (const ch of randomBase62(62 * 2000)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const n of counts.values()) expect(Math.abs(n - 2000)).toBeLessThan(300);
  });

  it("derives the same string from the same key and label, another from another", () => {
    expect(derivedBase62("k", "a", 24)).toBe(derivedBase62("k", "a", 24));
    expect(derivedBase62("k", "a", 24)).not.toBe(derivedBase62("k", "b", 24));
    expect(derivedBase62("k", "a", 100)).toMatch(/^[0-9A-Za-z]{100}$/);
  });

  it("makes sids of 16 and response codes of 10 characters", () => {
    expect(newSid()).toMatch(SID_PATTERN);
    expect(newResponseCode()).toMatch(RESPONSE_CODE_PATTERN);
  });
});

describe("API key format", () => {
  it("is dmk_ plus 32 base62 characters, shown by its first 8 and stored as SHA-256", () => {
    const key = `dmk_${randomBase62(32)}`;
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(isWellFormedApiKey(`${key}x`)).toBe(false);
    expect(isWellFormedApiKey(key.replace("dmk_", "sk_"))).toBe(false);
    expect(displayStart(key)).toBe(key.slice(0, 8));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
  });
});
