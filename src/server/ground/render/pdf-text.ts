import type { Glyph } from "fontkit";
import { cacheEmbedding, type PdfKitFont } from "./font-embed";
import { layoutCache } from "./shaping";
import type { GlyphRun } from "./scene";

/**
 * A glyph run as PDF text operators, written straight into the page's content: the operators
 * PDFKit's text() writes for a run placed at its baseline without line breaking (doc.text(text, x,
 * y, { lineBreak: false, baseline: "alphabetic" })), byte for byte, without its option handling,
 * line wrapper, width measuring and one content write per operator. The font objects are PDFKit's
 * (doc.font(), once per document and font file), so subsetting, widths and the ToUnicode map are
 * its own and the text stays searchable and extractable.
 */
export function drawRun(doc: PDFKit.PDFDocument, run: GlyphRun): void {
  const text = run.text.replace(/\n/g, "");
  const font = documentFont(doc, run);
  // PDFKit's current font and page fonts, which its types do not show.
  const d = doc as unknown as PdfKitDoc;
  // doc.fillColor(run.color): the colour space and colour (no opacity). A colour other than #rgb
  // or #rrggbb (a named one) is left to PDFKit.
  const colour = rgb(run.color);
  const ops: string[] = [];
  if (colour === null) doc.fillColor(run.color);
  else ops.push(`/DeviceRGB cs\n${colour} scn`);
  if (text.length > 0) {
    const pageHeight = d.page.height;
    if (d.page.fonts[font.id] == null) d.page.fonts[font.id] = font.ref();
    const size = num(run.size);
    let x = run.x;
    const y = pageHeight - run.y;
    ops.push("q", `1 0 0 -1 0 ${num(pageHeight)} cm`, "BT", `1 0 0 1 ${num(x)} ${num(y)} Tm`, `/${font.id} ${size} Tf`);
    const [encoded, positions] = font.encode(text) as [string[], Position[]];
    const scale = run.size / 1000;
    const commands: string[] = [];
    let last = 0;
    let hadOffset = false;
    const addSegment = (cur: number) => {
      if (last < cur) {
        const advance = positions[cur - 1].xAdvance - positions[cur - 1].advanceWidth;
        commands.push(`<${encoded.slice(last, cur).join("")}> ${num(-advance)}`);
      }
      last = cur;
    };
    const flush = (i: number) => {
      addSegment(i);
      if (commands.length > 0) {
        ops.push(`[${commands.join(" ")}] TJ`);
        commands.length = 0;
      }
    };
    let i = 0;
    for (; i < positions.length; i++) {
      const pos = positions[i];
      if (pos.xOffset || pos.yOffset) {
        flush(i);
        ops.push(`1 0 0 1 ${num(x + pos.xOffset * scale)} ${num(y + pos.yOffset * scale)} Tm`);
        flush(i + 1);
        hadOffset = true;
      } else {
        if (hadOffset) {
          ops.push(`1 0 0 1 ${num(x)} ${num(y)} Tm`);
          hadOffset = false;
        }
        if (pos.xAdvance - pos.advanceWidth !== 0) addSegment(i + 1);
      }
      x += pos.xAdvance * scale;
    }
    flush(i);
    ops.push("ET", "Q");
  }
  // One write for the whole run (PDFKit's page content adds the line end).
  if (ops.length > 0) d.addContent(ops.join("\n"));
}

interface Position {
  xAdvance: number;
  xOffset: number;
  yOffset: number;
  advanceWidth: number;
}

interface PdfKitDoc {
  page: { height: number; fonts: Record<string, unknown> };
  _font: EmbeddedFont;
  addContent(data: string): unknown;
}

/** PDFKit's number(): six decimals at most. */
const num = (n: number) => Math.round(n * 1e6) / 1e6;

const colours = new Map<string, string | null>();
/** PDFKit's scn operands for "#rgb" or "#rrggbb" (its _normalizeColor); null for any other colour. */
function rgb(color: string): string | null {
  let out = colours.get(color);
  if (out === undefined) {
    const hex = color.length === 4 ? color.replace(/#([0-9A-F])([0-9A-F])([0-9A-F])/i, "#$1$1$2$2$3$3") : color;
    const n = parseInt(hex.slice(1), 16);
    out = /^#[0-9a-f]{6}$/i.test(hex) ? [n >> 16, (n >> 8) & 0xff, n & 0xff].map((part) => part / 255).join(" ") : null;
    if (colours.size > 1000) colours.clear();
    colours.set(color, out);
  }
  return out;
}

const fontsOf = new WeakMap<object, Map<string, EmbeddedFont>>();

/** The document's PDFKit font for a run's font file: made by doc.font() the first time, then reused. */
function documentFont(doc: PDFKit.PDFDocument, run: GlyphRun): EmbeddedFont {
  let fonts = fontsOf.get(doc);
  if (!fonts) fontsOf.set(doc, (fonts = new Map()));
  let font = fonts.get(run.font.key);
  if (!font) {
    // PDFKit takes a fontkit font as well as a file (its types name only files and buffers), and
    // keeps the embedded font it made in doc._font, which its types do not show.
    doc.font(run.font.font as unknown as string, run.font.key);
    font = (doc as unknown as PdfKitDoc)._font;
    // PDFKit shapes each word again per document; hand it the layout's shared cache instead.
    font.layoutCache = layoutCache(run.font, run.rtl);
    if (!font[ENCODES_BY_TEXT]) {
      font.encode = encodeByText;
      font[ENCODES_BY_TEXT] = true;
      // The same PDFKit object, seen through the fields font-embed.ts uses.
      cacheEmbedding(font as unknown as PdfKitFont, run.font.key);
    }
    fonts.set(run.font.key, font);
  }
  // A right-to-left piece has a shaping cache of its own.
  font.layoutCache = layoutCache(run.font, run.rtl);
  return font;
}

const ENCODES_BY_TEXT = Symbol("encodesByText");
interface EmbeddedFont {
  id: string;
  ref(): unknown;
  layoutCache?: unknown;
  [ENCODES_BY_TEXT]?: boolean;
  subset: { glyphs: number[]; includeGlyph(id: number): number };
  unicode: number[][];
  widths: number[];
  scale: number;
  layout(text: string, features?: unknown): { glyphs: Glyph[]; positions: unknown[] };
  encode(text: string, features?: unknown): [string[], unknown[]];
  /** Extra subset glyph ids for a glyph that stands for other characters elsewhere: "glyphId:codePoints" -> subset id. */
  aliases?: Map<string, number>;
}
/**
 * PDFKit's EmbeddedFont.encode, except that one glyph drawn for different characters gets one
 * subset glyph per character. Fonts share outlines between letters (Noto Sans Arabic draws س and
 * ش, or ب ت ث ن ي at the start of a word, with one dotless base glyph and separate dots), and a PDF
 * maps each glyph to one text in its ToUnicode table: without this, the second name on a page
 * would extract with the first one's letters. The duplicate costs one glyph's outline in the subset.
 */
function encodeByText(this: EmbeddedFont, text: string, features?: unknown): [string[], unknown[]] {
  const { glyphs, positions } = this.layout(text, features);
  const res: string[] = [];
  for (const glyph of glyphs) {
    let gid = this.subset.includeGlyph(glyph.id);
    const codePoints = glyph.codePoints ?? [];
    const known = this.unicode[gid];
    if (known != null && known.join(",") !== codePoints.join(",")) {
      this.aliases ??= new Map();
      const key = `${glyph.id}:${codePoints.join(",")}`;
      let alias = this.aliases.get(key);
      if (alias === undefined) {
        this.subset.glyphs.push(glyph.id);
        alias = this.subset.glyphs.length - 1;
        this.aliases.set(key, alias);
      }
      gid = alias;
    }
    res.push(`0000${gid.toString(16)}`.slice(-4));
    this.widths[gid] ??= glyph.advanceWidth * this.scale;
    this.unicode[gid] ??= codePoints;
  }
  return [res, positions];
}
