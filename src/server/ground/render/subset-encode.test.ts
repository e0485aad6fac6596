import type * as fontkit from "fontkit";
import { describe, expect, it } from "vitest";
import { type TTFSubset, useGlyphRecords } from "./font-embed";
import { type FontRef, FONT_FAMILIES, fontFor, type TFontFamily } from "./fonts";

/** Text in every script the renderer draws, so each bundled font file (and its slices) is subset. */
const TEXT =
  "Hello Wörld ﬁ Đặng Łukasz Zoë Ελένη Елена 王芳 健太 かな カナ 지민 محمد السيد שרה כהן สมชาย ใจดี प्रिया शर्मा 0123 @&%€ «»";

function fontsFor(family: TFontFamily, weight: number): Map<string, { ref: FontRef; text: string }> {
  const out = new Map<string, { ref: FontRef; text: string }>();
  for (const ch of TEXT) {
    const ref = fontFor(family, weight, ch.codePointAt(0)!);
    if (!ref) continue;
    const entry = out.get(ref.key) ?? { ref, text: "" };
    entry.text += ch;
    out.set(ref.key, entry);
  }
  return out;
}

describe("a font subset written from the font's fixed tables", () => {
  it("is byte for byte the file fontkit's encoder writes, for every family, weight and script", () => {
    let compared = 0;
    for (const family of Object.keys(FONT_FAMILIES) as TFontFamily[]) {
      for (const weight of [400, 700]) {
        for (const { ref, text } of fontsFor(family, weight).values()) {
          // fontkit's createSubset returns its TTFSubset, whose internals its types do not show.
          const font = ref.font as unknown as Omit<fontkit.Font, "createSubset"> & { createSubset(): TTFSubset };
          const glyphs = font.layout(text).glyphs.map((g) => g.id);
          // Twice each: the second subset of a font uses the fixed tables kept from the first.
          for (const order of [glyphs, [...glyphs].reverse()]) {
            const theirs = font.createSubset();
            const ours = font.createSubset();
            useGlyphRecords(ours);
            for (const id of order) {
              theirs.includeGlyph(id);
              ours.includeGlyph(id);
            }
            expect(Buffer.from(ours.encode()).equals(Buffer.from(theirs.encode())), `${ref.key}: ${text}`).toBe(true);
            compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(20);
  });
});
