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
 */
export const FONT_FAMILIES = {
  "noto-sans": { label: "Noto Sans", kind: "sans", pkg: "@fontsource/noto-sans", file: "noto-sans", weights: [400, 700] },
  "noto-serif": { label: "Noto Serif", kind: "serif", pkg: "@fontsource/noto-serif", file: "noto-serif", weights: [400, 700] },
  caveat: { label: "Caveat", kind: "handwriting", pkg: "@fontsource/caveat", file: "caveat", weights: [400, 700] },
  "patrick-hand": { label: "Patrick Hand", kind: "handwriting", pkg: "@fontsource/patrick-hand", file: "patrick-hand", weights: [400] },
  "dancing-script": { label: "Dancing Script", kind: "handwriting", pkg: "@fontsource/dancing-script", file: "dancing-script", weights: [400, 700] },
  "noto-sans-sc": { label: "Noto Sans SC", kind: "fallback", pkg: "@fontsource/noto-sans-sc", file: "noto-sans-sc", weights: [400, 700] },
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
    const unicode = JSON.parse(readFileSync(path.join(packageDir(FONT_FAMILIES[family].pkg), "unicode.json"), "utf8")) as Record<string, string>;
    const order = (n: string) => (n === "latin" ? 0 : n === "latin-ext" ? 1 : n.startsWith("[") ? 3 : 2);
    list = Object.entries(unicode)
      .map(([name, spec]) => ({ name: name.replace(/^\[(\d+)\]$/, "$1"), ranges: parseRanges(spec), rank: order(name) }))
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

/** The families tried in turn for a character: the chosen one, then Noto Sans (or Noto Serif), then Noto Sans SC. */
export function fallbackChain(family: TFontFamily): TFontFamily[] {
  const second: TFontFamily = FONT_FAMILIES[family].kind === "serif" ? "noto-serif" : "noto-sans";
  return [...new Set<TFontFamily>([family, second, "noto-sans", "noto-sans-sc"])];
}

const faceCache = new Map<string, FontRef | null>();
/**
 * The font file that draws a code point in the given family and weight, trying the fallback chain;
 * null when no bundled font has the character (the renderer reports it).
 */
export function fontFor(family: TFontFamily, weight: number, codePoint: number): FontRef | null {
  const cacheKey = `${family}:${weight}:${codePoint}`;
  const cached = faceCache.get(cacheKey);
  if (cached !== undefined) return cached;
  let found: FontRef | null = null;
  for (const f of fallbackChain(family)) {
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
