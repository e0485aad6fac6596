import bidiFactory from "bidi-js";

/**
 * Right-to-left text (Arabic, Hebrew) in the order it is drawn: the Unicode bidirectional algorithm
 * (UAX #9, by bidi-js) resolves each character's embedding level; a laid-out line is then cut into
 * pieces of one font and one level (a right-to-left piece holds one word and its trailing space) and
 * the pieces are reordered by rule L2. Each right-to-left piece is shaped by fontkit, which joins
 * Arabic letters and returns the glyphs of a right-to-left script in visual order, so a line reads
 * correctly from right to left while numbers and Latin words inside it keep their own direction.
 */

const bidi = bidiFactory();

/** Characters of right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko, their presentation forms...). */
const RTL_CHAR = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe]|[\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

export type TDirection = "ltr" | "rtl";

/** The mirrored form of a bracket-like code point ("(" for ")"), or null. */
export function mirrorOf(codePoint: number): number | null {
  const m = bidi.getMirroredCharacter(String.fromCodePoint(codePoint));
  return m ? m.codePointAt(0)! : null;
}

export const hasRtl = (text: string) => RTL_CHAR.test(text);

/** The direction of a paragraph: that of its first strong character (rule P2), left-to-right without one. */
export function paragraphDirection(text: string): TDirection {
  if (!hasRtl(text)) return "ltr";
  const { paragraphs } = bidi.getEmbeddingLevels(text);
  return (paragraphs[0]?.level ?? 0) % 2 ? "rtl" : "ltr";
}

export interface VisualPiece<F> {
  font: F;
  /** What is shaped: the characters, mirrored ("(" drawn as ")") where they run right to left. */
  text: string;
  rtl: boolean;
}

/** The pieces of one line (each drawn by one font, in reading order) cut and reordered as they are drawn from left to right. */
export function visualOrder<F>(
  line: string,
  pieces: { font: F; text: string }[],
  direction: TDirection,
): VisualPiece<F>[] {
  if (direction === "ltr" && !hasRtl(line)) return pieces.map((p) => ({ font: p.font, text: p.text, rtl: false }));
  const levels = bidi.getEmbeddingLevels(line, direction);
  const mirrored = bidi.getMirroredCharactersMap(line, levels.levels);
  const out: { font: F; text: string; actual: string; level: number }[] = [];
  let at = 0;
  for (const p of pieces) {
    let cur: (typeof out)[number] | null = null;
    for (const ch of p.text) {
      const level = levels.levels[at];
      const space = /\s/u.test(ch);
      // A new piece where the level changes, and after each word of right-to-left text.
      if (!cur || cur.level !== level || (level % 2 === 1 && !space && /\s$/u.test(cur.actual))) {
        cur = { font: p.font, text: "", actual: "", level };
        out.push(cur);
      }
      cur.text += mirrored.get(at) ?? ch;
      cur.actual += ch;
      at += ch.length;
    }
  }
  // Rule L2: from the highest level down to the lowest odd one, reverse every run at that level or above.
  const max = Math.max(...out.map((o) => o.level));
  const lowestOdd = Math.min(...out.map((o) => o.level)) | 1;
  for (let level = max; level >= lowestOdd; level--) {
    for (let i = 0; i < out.length; ) {
      if (out[i].level < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < out.length && out[j].level >= level) j++;
      out.splice(i, j - i, ...out.slice(i, j).reverse());
      i = j;
    }
  }
  return out.map((o) => ({ font: o.font, text: o.text, rtl: o.level % 2 === 1 }));
}
