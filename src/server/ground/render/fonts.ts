import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import * as fontkit from "fontkit";
import { woffToSfnt } from "./woff";

/**
 * The bundled fonts: npm font packages (Fontsource builds of Google Fonts, all under the SIL Open
 * Font License 1.1, which allows embedding them in documents). Each package ships one WOFF file per
 * Unicode subset and weight (latin, latin-ext, cyrillic, vietnamese, and about 100 slices of
 * Chinese): the renderer loads only the slices a document's text needs, and embeds only the
 * glyphs it uses, so a PDF with "王芳" in it carries a few kilobytes of Chinese font, not 10 MB.
 * Arabic, Hebrew, Thai, Korean and Japanese have their own Noto fallbacks, loaded the same way only
 * when a document's text has a character of theirs.
 */
export const FONT_FAMILIES = {
  "noto-sans": {
    label: "Noto Sans",
    kind: "sans",
    pkg: "@fontsource/noto-sans",
    file: "noto-sans",
    weights: [400, 700],
  },
  "noto-serif": {
    label: "Noto Serif",
    kind: "serif",
    pkg: "@fontsource/noto-serif",
    file: "noto-serif",
    weights: [400, 700],
  },
  caveat: { label: "Caveat", kind: "handwriting", pkg: "@fontsource/caveat", file: "caveat", weights: [400, 700] },
  "patrick-hand": {
    label: "Patrick Hand",
    kind: "handwriting",
    pkg: "@fontsource/patrick-hand",
    file: "patrick-hand",
    weights: [400],
  },
  "dancing-script": {
    label: "Dancing Script",
    kind: "handwriting",
    pkg: "@fontsource/dancing-script",
    file: "dancing-script",
    weights: [400, 700],
  },
  "noto-sans-sc": {
    label: "Noto Sans SC",
    kind: "fallback",
    pkg: "@fontsource/noto-sans-sc",
    file: "noto-sans-sc",
    weights: [400, 700],
  },
  "noto-sans-jp": {
    label: "Noto Sans JP",
    kind: "fallback",
    pkg: "@fontsource/noto-sans-jp",
    file: "noto-sans-jp",
    weights: [400, 700],
  },
  "noto-sans-kr": {
    label: "Noto Sans KR",
    kind: "fallback",
    pkg: "@fontsource/noto-sans-kr",
    file: "noto-sans-kr",
    weights: [400, 700],
  },
  "noto-sans-arabic": {
    label: "Noto Sans Arabic",
    kind: "fallback",
    pkg: "@fontsource/noto-sans-arabic",
    file: "noto-sans-arabic",
    weights: [400, 700],
  },
  "noto-sans-hebrew": {
    label: "Noto Sans Hebrew",
    kind: "fallback",
    pkg: "@fontsource/noto-sans-hebrew",
    file: "noto-sans-hebrew",
    weights: [400, 700],
  },
  "noto-sans-thai": {
    label: "Noto Sans Thai",
    kind: "fallback",
    pkg: "@fontsource/noto-sans-thai",
    file: "noto-sans-thai",
    weights: [400, 700],
  },
} as const;
export type TFontFamily = keyof typeof FONT_FAMILIES;
/** Families a brand kit may choose for headings and body text. */
export const TEXT_FONTS = ["noto-sans", "noto-serif"] as const satisfies TFontFamily[];
/** Families a brand kit may choose for handwritten notes and signatures. */
export const HANDWRITING_FONTS = ["caveat", "patrick-hand", "dancing-script"] as const satisfies TFontFamily[];

export interface FontRef {
  /** Unique per file, e.g. "noto-sans-latin-700". */
  key: string;
  font: fontkit.Font;
}

interface Slice {
  name: string;
  ranges: [number, number][];
}

const packageRequire = createRequire(path.join(process.cwd(), "package.json"));
const packageDirs = new Map<string, string>();
function packageDir(pkg: string): string {
  let dir = packageDirs.get(pkg);
  if (!dir) {
    dir = path.dirname(packageRequire.resolve(`${pkg}/package.json`));
    packageDirs.set(pkg, dir);
  }
  return dir;
}

function parseRanges(spec: string): [number, number][] {
  return spec.split(",").map((part) => {
    const [a, b] = part.trim().replace(/^U\+/i, "").split("-");
    return [parseInt(a, 16), parseInt(b ?? a, 16)] as [number, number];
  });
}

const slicesByFamily = new Map<TFontFamily, Slice[]>();
/** The family's Unicode slices, in the order a browser would try them (named subsets first, latin before others). */
function slices(family: TFontFamily): Slice[] {
  let list = slicesByFamily.get(family);
  if (!list) {
    const unicode = JSON.parse(
      readFileSync(path.join(packageDir(FONT_FAMILIES[family].pkg), "unicode.json"), "utf8"),
    ) as Record<string, string>;
    const order = (n: string) => (n === "latin" ? 0 : n === "latin-ext" ? 1 : n.startsWith("[") ? 3 : 2);
    list = Object.entries(unicode)
      .map(([name, spec]) => ({
        name: name.replace(/^\[(\d+)\]$/, "$1"),
        ranges: parseRanges(spec),
        rank: order(name),
      }))
      .sort((a, b) => a.rank - b.rank)
      .map(({ name, ranges }) => ({ name, ranges }));
    slicesByFamily.set(family, list);
  }
  return list;
}

const loaded = new Map<string, FontRef>();
function loadSlice(family: TFontFamily, slice: string, weight: number): FontRef {
  const def = FONT_FAMILIES[family];
  const key = `${def.file}-${slice}-${weight}`;
  let ref = loaded.get(key);
  if (!ref) {
    const file = path.join(packageDir(def.pkg), "files", `${def.file}-${slice}-${weight}-normal.woff`);
    const font = fontkit.create(woffToSfnt(readFileSync(file))) as fontkit.Font;
    ref = { key, font };
    loaded.set(key, ref);
  }
  return ref;
}

function nearestWeight(family: TFontFamily, weight: number): number {
  const weights: readonly number[] = FONT_FAMILIES[family].weights;
  return weights.reduce((best, w) => (Math.abs(w - weight) < Math.abs(best - weight) ? w : best), weights[0]);
}

/**
 * The language a text is written in, where it decides the glyph forms: Chinese, Japanese and Korean
 * share the Han characters but print many of them differently (直, 骨, 海...), so a Japanese name must
 * be drawn from the Japanese font. Undefined: no preference (Han characters get the Chinese forms).
 */
export type TCjkLang = "ja" | "ko" | "zh";

const CJK_ORDER: Record<TCjkLang | "none", TFontFamily[]> = {
  none: ["noto-sans-sc", "noto-sans-jp", "noto-sans-kr"],
  zh: ["noto-sans-sc", "noto-sans-jp", "noto-sans-kr"],
  ja: ["noto-sans-jp", "noto-sans-sc", "noto-sans-kr"],
  ko: ["noto-sans-kr", "noto-sans-sc", "noto-sans-jp"],
};

/**
 * The families tried in turn for a character: the chosen one, then Noto Sans (or Noto Serif), the
 * Arabic, Hebrew and Thai fonts, then the CJK fonts in the order the text's language asks for.
 */
export function fallbackChain(family: TFontFamily, lang?: TCjkLang): TFontFamily[] {
  const second: TFontFamily = FONT_FAMILIES[family].kind === "serif" ? "noto-serif" : "noto-sans";
  return [
    ...new Set<TFontFamily>([
      family,
      second,
      "noto-sans",
      "noto-sans-arabic",
      "noto-sans-hebrew",
      "noto-sans-thai",
      ...CJK_ORDER[lang ?? "none"],
    ]),
  ];
}

const faceCache = new Map<string, FontRef | null>();
/**
 * The font file that draws a code point in the given family and weight, trying the fallback chain;
 * null when no bundled font has the character (the renderer reports it).
 */
export function fontFor(family: TFontFamily, weight: number, codePoint: number, lang?: TCjkLang): FontRef | null {
  const cacheKey = `${family}:${weight}:${codePoint}:${lang ?? ""}`;
  const cached = faceCache.get(cacheKey);
  if (cached !== undefined) return cached;
  let found: FontRef | null = null;
  for (const f of fallbackChain(family, lang)) {
    const w = nearestWeight(f, weight);
    for (const s of slices(f)) {
      if (!s.ranges.some(([a, b]) => codePoint >= a && codePoint <= b)) continue;
      const ref = loadSlice(f, s.name, w);
      if (ref.font.hasGlyphForCodePoint(codePoint)) {
        found = ref;
        break;
      }
    }
    if (found) break;
  }
  if (faceCache.size > 50_000) faceCache.clear();
  faceCache.set(cacheKey, found);
  return found;
}

/** The family's main (latin) font: its metrics set the line's ascent and descent. */
export function primaryFont(family: TFontFamily, weight: number): FontRef {
  return loadSlice(family, "latin", nearestWeight(family, weight));
}
