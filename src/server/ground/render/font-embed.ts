import { deflateSync } from "node:zlib";
import type * as fontkit from "fontkit";
import { Lru } from "./lru";
import { encodeFromFixedTables, type SubsetInternals } from "./subset-encode";

/**
 * The embedding of one font in one PDF, made cheap for the next document with the same glyphs.
 * PDFKit writes each font of a document as a TrueType subset (fontkit's TTFSubset) and its
 * ToUnicode map, both deflated, when the document ends; for a postcard that was about a third of
 * the time per piece. Two caches:
 *
 * - per glyph of a font file: its outline bytes, its components (a composite glyph) and metrics,
 *   read once per process instead of decoding the glyph again for every document (fontkit's
 *   _addGlyph parses the whole outline only to learn whether the glyph is composite). Bounded by
 *   the bundled font files themselves: at most one record per glyph of a slice that was used.
 * - per font file, glyph list and characters: the deflated font file and ToUnicode stream. A font
 *   whose text is the same for every recipient (a sign-off, the return address's face) is written
 *   once per process; one whose glyphs differ misses and is made as before. Keyed on content, at
 *   most 512 entries and 32 MB.
 *
 * The bytes written are PDFKit's own (same objects, same order, same streams), so a PDF is the
 * same with or without a hit.
 */

interface GlyphRecord {
  bytes: Uint8Array;
  components: { glyphID: number; pos: number }[] | null;
  advance: number;
  bearing: number;
}

interface FontInternals {
  getGlyph(id: number): {
    advanceWidth: number;
    _decode(): { numberOfContours: number; components?: { glyphID: number; pos: number }[] } | null;
    _getMetrics(): { leftBearing: number };
  };
  loca: { offsets: number[] };
  _getTableStream(tag: string): { pos: number; readBuffer(n: number): Uint8Array };
  _variationProcessor?: unknown;
}

const records = new WeakMap<object, Map<number, GlyphRecord>>();
function glyphRecord(font: FontInternals, gid: number): GlyphRecord {
  let perFont = records.get(font);
  if (!perFont) records.set(font, (perFont = new Map()));
  let rec = perFont.get(gid);
  if (!rec) {
    const glyph = font.getGlyph(gid);
    const glyf = glyph._decode();
    const start = font.loca.offsets[gid];
    const stream = font._getTableStream("glyf");
    stream.pos += start;
    const bytes = Uint8Array.from(stream.readBuffer(font.loca.offsets[gid + 1] - start));
    const components =
      glyf && glyf.numberOfContours < 0
        ? (glyf.components ?? []).map((c) => ({ glyphID: c.glyphID, pos: c.pos }))
        : null;
    rec = { bytes, components, advance: glyph.advanceWidth, bearing: glyph._getMetrics().leftBearing };
    perFont.set(gid, rec);
  }
  return rec;
}

export interface TTFSubset {
  font: FontInternals;
  glyphs: number[];
  glyf: Uint8Array[];
  offset: number;
  loca: { offsets: number[] };
  hmtx: { metrics: { advance: number; bearing: number }[] };
  cff?: unknown;
  includeGlyph(id: number): number;
  encode(): Uint8Array;
  _addGlyph(gid: number): number;
}

/** fontkit's TTFSubset._addGlyph from the per-glyph records: the same bytes and metrics, without decoding the outline. */
function addGlyph(this: TTFSubset, gid: number): number {
  const rec = glyphRecord(this.font, gid);
  let buffer = rec.bytes;
  if (rec.components) {
    buffer = new Uint8Array(rec.bytes);
    const view = new DataView(buffer.buffer);
    for (const c of rec.components) view.setUint16(c.pos, this.includeGlyph(c.glyphID));
  }
  this.glyf.push(buffer);
  this.loca.offsets.push(this.offset);
  this.hmtx.metrics.push({ advance: rec.advance, bearing: rec.bearing });
  this.offset += buffer.length;
  return this.glyf.length - 1;
}

/**
 * A TrueType subset that takes its glyphs from the per-glyph records and writes the font's fixed
 * tables once per font file (./subset-encode.ts): the same file as fontkit's own subset.
 */
export function useGlyphRecords(subset: TTFSubset): void {
  subset._addGlyph = addGlyph;
  // fontkit's subset fields the encoder reads (./subset-encode.ts); fontkit's types do not show them.
  encodeFromFixedTables(subset as unknown as SubsetInternals);
}

interface Embedded {
  fontFile: Buffer;
  cmap: Buffer;
}
const embedded = new Lru<string, Embedded>(512, (e) => e.fontFile.length + e.cmap.length + 200, 32 * 1024 * 1024);

/** PDFKit's EmbeddedFont, the parts used here. */
export interface PdfKitFont {
  font: fontkit.Font;
  subset: TTFSubset;
  unicode: number[][];
  document: { ref(data?: object): PdfRef; subset?: unknown; compress?: boolean };
  embed(): void;
}
interface PdfRef {
  data: Record<string, unknown>;
  compress: boolean;
  write(chunk: Uint8Array): void;
  end(chunk?: string | Uint8Array): void;
}

/**
 * Makes one PDFKit EmbeddedFont of a document use the caches: `key` names the font file (FontRef.key).
 * A CFF font, a variable font or a PDF/A document (CIDSet) keeps PDFKit's own path.
 */
export function cacheEmbedding(pdfFont: PdfKitFont, key: string): void {
  const subset = pdfFont.subset;
  if (subset.cff != null || subset.font._variationProcessor || pdfFont.document.subset || !pdfFont.document.compress)
    return;
  useGlyphRecords(subset);
  const ownEmbed = pdfFont.embed;
  pdfFont.embed = function (this: PdfKitFont) {
    // The subset and its ToUnicode map are functions of the glyph list (in order) and each glyph's characters.
    const contentKey = `${key}|${subset.glyphs.join(",")}|${this.unicode.map((u) => (u ?? []).join(".")).join(",")}`;
    const hit = embedded.get(contentKey);
    const doc = this.document;
    const realRef = doc.ref.bind(doc);
    const made: Embedded = { fontFile: Buffer.alloc(0), cmap: Buffer.alloc(0) };
    let streams = 0;
    // PDFKit's embed makes the font file first and the ToUnicode map last: hand it refs that write
    // the cached deflated bytes (or deflate them once and remember them).
    doc.ref = (data?: object) => {
      const ref = realRef(data);
      if (data !== undefined) return ref;
      const which = streams++;
      if (which > 1) return ref;
      const end = ref.end.bind(ref);
      ref.end = (chunk?: string | Uint8Array) => {
        if (chunk === undefined) return end();
        const raw = typeof chunk === "string" ? Buffer.from(`${chunk}\n`, "binary") : chunk;
        let packed = hit ? (which === 0 ? hit.fontFile : hit.cmap) : null;
        if (!packed) {
          packed = deflateSync(raw);
          made[which === 0 ? "fontFile" : "cmap"] = packed;
        }
        ref.compress = false;
        ref.write(packed);
        ref.data.Filter = "FlateDecode";
        end();
      };
      return ref;
    };
    if (hit) {
      // The cached font file stands for the subset: skip encoding it.
      const encode = subset.encode;
      subset.encode = () => new Uint8Array(0);
      try {
        ownEmbed.call(this);
      } finally {
        subset.encode = encode;
        doc.ref = realRef;
      }
      return;
    }
    try {
      ownEmbed.call(this);
    } finally {
      doc.ref = realRef;
    }
    if (streams === 2) embedded.set(contentKey, made);
  };
}
