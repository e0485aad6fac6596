import { inflateSync } from "node:zlib";

/**
 * Unpacks a WOFF 1.0 font into the plain OpenType (sfnt) bytes it wraps, with Node's zlib.
 * fontkit can read WOFF itself, but with a pure-JavaScript inflate on every parse; the renderer
 * unpacks each font file once and then shares one parsed font between all documents.
 */
export function woffToSfnt(buf: Buffer): Buffer {
  if (buf.length < 44 || buf.readUInt32BE(0) !== 0x774f4646) return buf; // not "wOFF": already sfnt
  const flavor = buf.readUInt32BE(4);
  const numTables = buf.readUInt16BE(12);
  let at = 12 + 16 * numTables;
  const tables = [];
  for (let i = 0; i < numTables; i++) {
    const o = 44 + i * 20;
    const offset = buf.readUInt32BE(o + 4);
    const compLength = buf.readUInt32BE(o + 8);
    const origLength = buf.readUInt32BE(o + 12);
    const raw = buf.subarray(offset, offset + compLength);
    const data = compLength < origLength ? inflateSync(raw) : raw;
    tables.push({ tag: buf.readUInt32BE(o), checksum: buf.readUInt32BE(o + 16), data, at });
    at += (data.length + 3) & ~3;
  }
  const out = Buffer.alloc(at);
  let pow = 1;
  let log = 0;
  while (pow * 2 <= numTables) {
    pow *= 2;
    log++;
  }
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE(pow * 16, 6);
  out.writeUInt16BE(log, 8);
  out.writeUInt16BE(numTables * 16 - pow * 16, 10);
  tables.forEach((t, i) => {
    const o = 12 + i * 16;
    out.writeUInt32BE(t.tag, o);
    out.writeUInt32BE(t.checksum, o + 4);
    out.writeUInt32BE(t.at, o + 8);
    out.writeUInt32BE(t.data.length, o + 12);
    t.data.copy(out, t.at);
  });
  return out;
}
