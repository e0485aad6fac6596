/**
 * fontkit's TTFSubset.encode, writing the tables that do not depend on the glyphs once per font
 * file. A subset is a TrueType file of nine tables (head, hhea, loca, maxp, cvt, prep, glyf, hmtx,
 * fpgm, those the font has); fontkit encodes every one of them through its struct encoder for
 * every document, though head, cvt, prep and fpgm are copies of the font's own and hhea and maxp
 * differ by one count each. Here the font's fixed tables are taken once from fontkit's own encoding
 * of a one-glyph subset, and each subset's file is written from them and its glyphs: the same bytes,
 * in the same order, as fontkit's encoder (subset-encode.test.ts compares them for every bundled font).
 */

export interface SubsetInternals {
  font: object;
  glyphs: number[];
  glyf: Uint8Array[];
  offset: number;
  loca: { offsets: number[]; version: number };
  hmtx: { metrics: { advance: number; bearing: number }[]; bearings: number[] };
  _addGlyph(gid: number): number;
  encode(): Uint8Array;
}

interface FixedTables {
  /** The tables in fontkit's order, each either fixed bytes or one the subset writes. */
  order: { tag: string; bytes?: Uint8Array }[];
}

const fixedByFont = new WeakMap<object, FixedTables>();

/** The font's tables as fontkit writes them for a subset of glyph 0 alone. */
function fixedTables(subset: SubsetInternals, fontkitEncode: () => Uint8Array): FixedTables {
  let fixed = fixedByFont.get(subset.font);
  if (fixed) return fixed;
  // A new subset of the same font holds glyph 0 alone (fontkit's constructor includes it).
  const probe = new (subset.constructor as new (font: object) => SubsetInternals)(subset.font);
  probe._addGlyph = subset._addGlyph;
  const file = fontkitEncode.call(probe);
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const order: FixedTables["order"] = [];
  for (let i = 0, n = view.getUint16(4); i < n; i++) {
    const entry = 12 + 16 * i;
    const tag = String.fromCharCode(...file.subarray(entry, entry + 4));
    const offset = view.getUint32(entry + 8);
    const length = view.getUint32(entry + 12);
    order.push(VARYING.has(tag) ? { tag } : { tag, bytes: file.slice(offset, offset + length) });
  }
  fixed = { order };
  fixedByFont.set(subset.font, fixed);
  return fixed;
}

/** Tables written from the subset's glyphs; hhea and maxp are the font's with one count set. */
const VARYING = new Set(["loca", "glyf", "hmtx"]);

/** Replaces a subset's encode with the one below; `fontkitEncode` is its own, used once per font for the fixed tables. */
export function encodeFromFixedTables(subset: SubsetInternals): void {
  const fontkitEncode = subset.encode;
  subset.encode = function (this: SubsetInternals) {
    return encodeSubset(this, fixedTables(this, fontkitEncode));
  };
}

function encodeSubset(s: SubsetInternals, fixed: FixedTables): Uint8Array {
  // As fontkit's encode: every glyph added in order (a composite's components join the list as it goes).
  s.glyf = [];
  s.offset = 0;
  s.loca = { offsets: [], version: (s.font as { loca: { version: number } }).loca.version };
  s.hmtx = { metrics: [], bearings: [] };
  for (let i = 0; i < s.glyphs.length; i++) s._addGlyph(s.glyphs[i]);
  s.loca.offsets.push(s.offset);

  const short = s.loca.version === 0;
  const lengths = fixed.order.map(({ tag, bytes }) =>
    bytes
      ? bytes.length
      : tag === "loca"
        ? s.loca.offsets.length * (short ? 2 : 4)
        : tag === "glyf"
          ? s.offset
          : 4 * s.hmtx.metrics.length,
  );
  const numTables = fixed.order.length;
  const header = 12 + 16 * numTables;
  const out = new Uint8Array(header + lengths.reduce((a, b) => a + b, 0));
  const view = new DataView(out.buffer);
  // The table directory: tag "true", binary search fields, then tag, checksum 0, offset and length per table.
  out.set([0x74, 0x72, 0x75, 0x65], 0);
  const power = 2 ** Math.floor(Math.log(numTables) / Math.LN2);
  view.setUint16(4, numTables);
  view.setUint16(6, power * 16);
  view.setUint16(8, Math.log(power) / Math.LN2);
  view.setUint16(10, numTables * 16 - power * 16);
  let at = header;
  fixed.order.forEach(({ tag, bytes }, i) => {
    const entry = 12 + 16 * i;
    for (let k = 0; k < 4; k++) out[entry + k] = tag.charCodeAt(k);
    view.setUint32(entry + 8, at);
    view.setUint32(entry + 12, lengths[i]);
    if (bytes) {
      out.set(bytes, at);
      if (tag === "hhea") view.setUint16(at + 34, s.hmtx.metrics.length);
      if (tag === "maxp") view.setUint16(at + 4, s.glyf.length);
    } else if (tag === "loca") {
      for (const [k, offset] of s.loca.offsets.entries()) {
        if (short) view.setUint16(at + 2 * k, offset >>> 1);
        else view.setUint32(at + 4 * k, offset);
      }
    } else if (tag === "glyf") {
      let p = at;
      for (const g of s.glyf) {
        out.set(g, p);
        p += g.length;
      }
    } else {
      for (const [k, m] of s.hmtx.metrics.entries()) {
        view.setUint16(at + 4 * k, m.advance);
        view.setInt16(at + 4 * k + 2, m.bearing);
      }
    }
    at += lengths[i];
  });
  return out;
}
