import LineBreaker from "linebreak";
import { paragraphDirection, type TDirection, visualOrder } from "./bidi";
import { type FontRef, fontFor, primaryFont, type TCjkLang, type TFontFamily } from "./fonts";
import type { GlyphRun } from "./scene";
import { Lru } from "./lru";
import { shapeText } from "./shaping";

export interface TextStyle {
  family: TFontFamily;
  weight: 400 | 700;
  /** Preferred size in points. */
  size: number;
  /** The text may shrink down to this size to fit its box (defaults to the preferred size: no shrinking). */
  minSize?: number;
  /** Line height as a multiple of the size. */
  lineHeight?: number;
  color: string;
  /** Unset: each paragraph aligned to where its direction starts (left, or right for Arabic and Hebrew). */
  align?: "left" | "center" | "right";
  valign?: "top" | "middle" | "bottom";
  /**
   * The language hint for Han characters (from the recipient's country): "ja" draws them with the
   * Japanese font's forms, "ko" with the Korean one's. Kana in the text makes it Japanese and Hangul
   * Korean whatever the hint says.
   */
  lang?: TCjkLang;
}

/** The font choice of one text: family, weight and the CJK language deciding Han glyph forms. */
interface Face {
  family: TFontFamily;
  weight: number;
  lang?: TCjkLang;
}
const faceKey = (f: Face) => `${f.family}|${f.weight}|${f.lang ?? ""}`;

/** The language whose glyph forms a text's Han characters take: Japanese with kana, Korean with Hangul, else the hint. */
export function textLang(text: string, hint?: TCjkLang): TCjkLang | undefined {
  if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text)) return "ja";
  if (/\p{Script=Hangul}/u.test(text)) return "ko";
  return hint;
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface TextFit {
  runs: GlyphRun[];
  /** The size used, after any shrinking. */
  size: number;
  lines: number;
  /** Height the text needs at that size. */
  height: number;
  /** True when the text did not fit even at the smallest size allowed: lines were left out, or a word had to be broken. */
  overflow: boolean;
  /** Characters no bundled font can draw. */
  missingGlyphs: string[];
}

interface Piece {
  font: FontRef;
  text: string;
}

const MAX_CACHE = 20_000;
const pieceCache = new Map<string, { pieces: Piece[]; missing: string[] }>();
const widthCache = new Map<string, number>();

/** Splits text into runs that one font file draws, following the family's fallback chain. */
function splitByFont(text: string, face: Face): { pieces: Piece[]; missing: string[] } {
  const { family, weight, lang } = face;
  const key = `${faceKey(face)}|${text}`;
  const hit = pieceCache.get(key);
  if (hit) return hit;
  const pieces: Piece[] = [];
  const missing: string[] = [];
  const primary = primaryFont(family, weight);
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const last = pieces[pieces.length - 1];
    // Combining marks and joiners stay with the character before them when its font can draw them.
    const joins = /\p{M}|\u200d|[\ufe00-\ufe0f]/u.test(ch) && last?.font.font.hasGlyphForCodePoint(cp);
    let font = joins ? last.font : fontFor(family, weight, cp, lang);
    if (!font) {
      if (!/\s/.test(ch)) missing.push(ch);
      font = last?.font ?? primary;
    }
    if (last && last.font === font) last.text += ch;
    else pieces.push({ font, text: ch });
  }
  const result = { pieces, missing };
  if (pieceCache.size > MAX_CACHE) pieceCache.clear();
  pieceCache.set(key, result);
  return result;
}

/** Width of a text at 1 pt, shaped (kerning, ligatures) as the PDF and the preview draw it. */
function unitWidth(text: string, face: Face): number {
  if (!text) return 0;
  const key = `${faceKey(face)}|${text}`;
  const hit = widthCache.get(key);
  if (hit !== undefined) return hit;
  let w = 0;
  for (const p of splitByFont(text, face).pieces) w += shapeText(p.font, p.text).advance / 1000;
  if (widthCache.size > MAX_CACHE) widthCache.clear();
  widthCache.set(key, w);
  return w;
}

interface Chunk {
  /** The chunk without its trailing spaces, and with them. */
  core: string;
  full: string;
  coreWidth: number;
  fullWidth: number;
  required: boolean;
}

const chunkCache = new Lru<string, Chunk[]>(5_000);

/** Break opportunities (UAX #14) of one paragraph, measured at 1 pt; a paragraph a template repeats for every recipient is measured once. */
function chunksOf(paragraph: string, face: Face): Chunk[] {
  const key = `${faceKey(face)}|${paragraph}`;
  const hit = chunkCache.get(key);
  if (hit) return hit;
  const chunks: Chunk[] = [];
  const breaker = new LineBreaker(paragraph);
  let last = 0;
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) {
    const full = paragraph.slice(last, bk.position);
    const core = full.replace(/\s+$/u, "");
    chunks.push({
      core,
      full,
      coreWidth: unitWidth(core, face),
      fullWidth: unitWidth(full, face),
      required: bk.required,
    });
    last = bk.position;
  }
  chunkCache.set(key, chunks);
  return chunks;
}

/** Greedy line filling at one size; a chunk wider than the line is broken between characters. */
function wrap(
  paragraphs: Chunk[][],
  size: number,
  width: number,
  face: Face,
): { lines: string[]; paragraphOf: number[]; broken: boolean } {
  const lines: string[] = [];
  const paragraphOf: number[] = [];
  let broken = false;
  for (const [index, chunks] of paragraphs.entries()) {
    let line = "";
    let lineWidth = 0;
    const flush = () => {
      lines.push(line.replace(/\s+$/u, ""));
      paragraphOf.push(index);
      line = "";
      lineWidth = 0;
    };
    if (chunks.length === 0) {
      lines.push("");
      paragraphOf.push(index);
    }
    for (const c of chunks) {
      if (line && lineWidth + c.coreWidth * size > width + 0.01) flush();
      if (!line && c.coreWidth * size > width + 0.01) {
        // A single word longer than the line: place it character by character.
        broken = true;
        for (const ch of c.full) {
          const w = unitWidth(ch, face) * size;
          if (line && lineWidth + w > width + 0.01 && !/\s/u.test(ch)) flush();
          line += ch;
          lineWidth += w;
        }
        continue;
      }
      line += c.full;
      lineWidth += c.fullWidth * size;
    }
    if (line || chunks.length > 0) flush();
  }
  return { lines, paragraphOf, broken };
}

/** One line as glyph runs from left to right: right-to-left pieces reordered and shaped as they are drawn (./bidi.ts). */
function shapeLine(
  text: string,
  x: number,
  baseline: number,
  style: TextStyle,
  size: number,
  face: Face,
  direction: TDirection,
): GlyphRun[] {
  const runs: GlyphRun[] = [];
  let cursor = x;
  for (const p of visualOrder(text, splitByFont(text, face).pieces, direction)) {
    const run = shapeText(p.font, p.text, p.rtl);
    const scale = size / 1000;
    const glyphs: GlyphRun["glyphs"] = [];
    let advance = 0;
    run.glyphs.forEach((g, i) => {
      const pos = run.positions[i];
      glyphs.push({ id: g.id, x: (advance + pos.xOffset) * scale, y: -pos.yOffset * scale });
      advance += pos.xAdvance;
    });
    const width = advance * scale;
    runs.push({
      font: p.font,
      size,
      text: p.text,
      ...(p.rtl ? { rtl: true } : {}),
      x: cursor,
      y: baseline,
      color: style.color,
      glyphs,
      width,
    });
    cursor += width;
  }
  return runs;
}

/** Normalises text for printing: NFC (so "Đặng" uses precomposed letters), no control characters, unified line breaks. */
export function cleanText(text: string): string {
  return text
    .normalize("NFC")
    .replace(/\r\n?/g, "\n")
    .replace(/\t/g, " ")
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "");
}

const fitCache = new Lru<string, TextFit>(2_000);

/**
 * layoutTextInBox, remembered: the same text in the same box and style always lays out the same,
 * so a block every recipient shares (the return address, a sign-off, the specimen mark, a call to
 * action without merge fields) is laid out once per process. The result is shared: read-only.
 */
export function layoutText(raw: string, box: Box, style: TextStyle): TextFit {
  const s = style;
  const key = `${box.x},${box.y},${box.w},${box.h}|${s.family},${s.weight},${s.size},${s.minSize},${s.lineHeight},${s.color},${s.align},${s.valign},${s.lang}|${raw}`;
  let fit = fitCache.get(key);
  if (!fit) {
    fit = layoutTextInBox(raw, box, style);
    fitCache.set(key, fit);
  }
  return fit;
}

/**
 * Lays text out in a box: word-wrapped (Unicode line breaking), shrunk step by step down to
 * `minSize` until it fits, and otherwise reported as overflowing, with the lines that fit drawn and
 * the last one ending in an ellipsis. Nothing is ever cut without `overflow` saying so.
 */
function layoutTextInBox(raw: string, box: Box, style: TextStyle): TextFit {
  const text = cleanText(raw);
  const lineHeight = style.lineHeight ?? 1.25;
  const minSize = Math.min(style.minSize ?? style.size, style.size);
  const face: Face = { family: style.family, weight: style.weight, lang: textLang(text, style.lang) };
  const paragraphTexts = text.split("\n");
  const paragraphs = paragraphTexts.map((p) => chunksOf(p, face));
  const directions = paragraphTexts.map(paragraphDirection);
  const missing = [...new Set(paragraphTexts.flatMap((p) => splitByFont(p, face).missing))];
  if (!text.trim()) return { runs: [], size: style.size, lines: 0, height: 0, overflow: false, missingGlyphs: [] };

  let size = style.size;
  let result = wrap(paragraphs, size, box.w, face);
  const fits = (r: typeof result, s: number) => !r.broken && r.lines.length * s * lineHeight <= box.h + 0.01;
  while (!fits(result, size) && size > minSize) {
    size = Math.max(minSize, size - Math.max(0.25, size * 0.04));
    result = wrap(paragraphs, size, box.w, face);
  }
  let lines = result.lines;
  const overflow = !fits(result, size);
  const capacity = Math.max(1, Math.floor((box.h + 0.01) / (size * lineHeight)));
  if (lines.length > capacity) {
    lines = lines.slice(0, capacity);
    let lastLine = `${lines[capacity - 1].replace(/\s+$/u, "")}…`;
    while (lastLine.length > 1 && unitWidth(lastLine, face) * size > box.w)
      lastLine = `${lastLine.slice(0, -2).replace(/\s+$/u, "")}…`;
    lines[capacity - 1] = lastLine;
  }

  const primary = primaryFont(style.family, style.weight).font;
  const ascent = primary.ascent / primary.unitsPerEm;
  const descent = Math.abs(primary.descent) / primary.unitsPerEm;
  const lead = size * lineHeight;
  const height = lines.length * lead;
  const top =
    style.valign === "middle"
      ? box.y + (box.h - height) / 2
      : style.valign === "bottom"
        ? box.y + box.h - height
        : box.y;
  const runs: GlyphRun[] = [];
  lines.forEach((line, i) => {
    if (!line) return;
    const baseline = top + i * lead + (lead - (ascent + descent) * size) / 2 + ascent * size;
    const width = unitWidth(line, face) * size;
    const direction = directions[result.paragraphOf[i]] ?? "ltr";
    // Without an alignment of its own, a paragraph starts where its direction starts: a right-to-left one at the right.
    const align = style.align ?? (direction === "rtl" ? "right" : "left");
    const x = align === "center" ? box.x + (box.w - width) / 2 : align === "right" ? box.x + box.w - width : box.x;
    runs.push(...shapeLine(line, x, baseline, style, size, face, direction));
  });
  return { runs, size, lines: lines.length, height: result.lines.length * lead, overflow, missingGlyphs: missing };
}

/** Width of one line of text at a size (for placing labels). */
export function textWidth(text: string, family: TFontFamily, weight: 400 | 700, size: number, lang?: TCjkLang): number {
  const clean = cleanText(text);
  return unitWidth(clean, { family, weight, lang: textLang(clean, lang) }) * size;
}
