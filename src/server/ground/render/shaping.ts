import type { Glyph, GlyphPosition } from "fontkit";
import { mirrorOf } from "./bidi";
import type { FontRef } from "./fonts";

/** A shaped word as PDFKit keeps it: glyphs, positions in 1/1000 em, and its advance. */
export interface ShapedRun {
  glyphs: Glyph[];
  positions: (GlyphPosition & { advanceWidth?: number })[];
  advanceWidth: number;
}

const MAX_WORDS = 50_000;
const caches = new Map<string, { words: Record<string, ShapedRun>; size: number }>();

/**
 * The shaping cache of one font, shared by the layout and by PDFKit (its per-document layout cache
 * is replaced by this one), so every word is shaped once per process and the PDF places exactly
 * the glyphs and positions the layout measured and the preview draws. Right-to-left pieces (./bidi.ts)
 * have a cache of their own: their brackets were mirrored before shaping and their glyphs say the
 * characters as written.
 */
export function layoutCache(font: FontRef, rtl = false): Record<string, ShapedRun> {
  const key = rtl ? `${font.key}|rtl` : font.key;
  let entry = caches.get(key);
  if (!entry || entry.size > MAX_WORDS) {
    entry = { words: Object.create(null) as Record<string, ShapedRun>, size: 0 };
    caches.set(key, entry);
  }
  return entry.words;
}

/** One word shaped by fontkit and scaled as PDFKit's EmbeddedFont.layoutRun does. */
function shapeWord(font: FontRef, word: string, rtl: boolean): ShapedRun {
  const cache = layoutCache(font, rtl);
  const hit = cache[word];
  if (hit) return hit;
  const run = layoutWithSourceCharacters(font, word);
  // A right-to-left piece's brackets were mirrored to be drawn ("(" as ")"): its text says the bracket written.
  if (rtl)
    run.glyphs = run.glyphs.map((g) =>
      g.codePoints.length === 1 && mirrorOf(g.codePoints[0]) !== null
        ? withCodePoints(g, [mirrorOf(g.codePoints[0])!])
        : g,
    );
  const scale = 1000 / font.font.unitsPerEm;
  for (let i = 0; i < run.positions.length; i++) {
    const p = run.positions[i] as GlyphPosition & Record<string, number>;
    for (const key of Object.keys(p)) p[key] *= scale;
    p.advanceWidth = run.glyphs[i].advanceWidth * scale;
  }
  cache[word] = run;
  caches.get(rtl ? `${font.key}|rtl` : font.key)!.size++;
  return run;
}

/** A shared fontkit glyph standing for other characters (its outline and metrics are the glyph's). */
const withCodePoints = (glyph: Glyph, codePoints: number[]) =>
  Object.create(glyph, { codePoints: { value: codePoints } }) as Glyph;

/**
 * fontkit's layout with each glyph saying the characters it was shaped from. fontkit keeps one Glyph
 * object per glyph id and font, carrying the characters of the first word that used it: Noto Sans
 * Arabic draws س and ش with one base glyph (the dots are glyphs of their own), so without this the
 * second would read as the first in the PDF's text. While the word is shaped, a glyph asked for with
 * other characters than the shared object's is handed out as a thin wrapper carrying them.
 */
function layoutWithSourceCharacters(font: FontRef, word: string) {
  const f = font.font;
  const shared = f.getGlyph;
  f.getGlyph = function (this: unknown, id: number, codePoints: number[] = []) {
    const glyph = shared.call(this, id, codePoints);
    return glyph.codePoints.join(",") === codePoints.join(",") ? glyph : withCodePoints(glyph, codePoints);
  };
  try {
    return font.font.layout(word);
  } finally {
    f.getGlyph = shared;
  }
}

/**
 * Shapes a run of text the way PDFKit does (word by word, each word keeping its trailing space or
 * tab), so the layout's widths and the glyphs the PDF writes agree exactly. Positions in 1/1000 em.
 */
export function shapeText(
  font: FontRef,
  text: string,
  rtl = false,
): { glyphs: Glyph[]; positions: GlyphPosition[]; advance: number } {
  const glyphs: Glyph[] = [];
  const positions: GlyphPosition[] = [];
  let advance = 0;
  let last = 0;
  let index = 0;
  while (index <= text.length) {
    const ch = text.charAt(index);
    if ((index === text.length && last < index) || ch === " " || ch === "\t") {
      const run = shapeWord(font, text.slice(last, ++index), rtl);
      for (let i = 0; i < run.glyphs.length; i++) {
        glyphs.push(run.glyphs[i]);
        positions.push(run.positions[i]);
        advance += run.positions[i].xAdvance;
      }
      last = index;
    } else index++;
  }
  return { glyphs, positions, advance };
}
