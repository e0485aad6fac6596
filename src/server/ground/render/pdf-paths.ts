import { Lru } from "./lru";

/**
 * A scene path as PDF content operators, exactly as PDFKit's doc.path() writes them, without
 * parsing the SVG path again for every document: a path every recipient shares (the artwork) is
 * recorded once from PDFKit and reused (a bounded LRU keyed on the path itself); a QR code (a
 * new path per recipient, but only absolute moves and relative h/v runs) is written directly with
 * PDFKit's own arithmetic and number format.
 */
const recorded = new Lru<string, string>(1_000, (ops) => ops.length, 16 * 1024 * 1024);
const QR_RUNS = /^(?:M-?[\d.]+ -?[\d.]+h-?[\d.]+v-?[\d.]+h-?[\d.]+z)+$/;
const RUN = /M(-?[\d.]+) (-?[\d.]+)h(-?[\d.]+)v(-?[\d.]+)h(-?[\d.]+)z/g;

/** PDFKit's PDFObject.number. */
function num(n: number): number {
  if (n > -1e21 && n < 1e21) return Math.round(n * 1e6) / 1e6;
  throw new Error(`unsupported number: ${n}`);
}

/** The operators of a path of QR runs ("M x y h w v c h -w z", repeated), as PDFKit's SVG path runners write them. */
function runsOps(d: string): string {
  const ops: string[] = [];
  for (const m of d.matchAll(RUN)) {
    const sx = Number(m[1]);
    const sy = Number(m[2]);
    let cx = sx;
    let cy = sy;
    ops.push(`${num(cx)} ${num(cy)} m`);
    cx += Number(m[3]);
    ops.push(`${num(cx)} ${num(cy)} l`);
    cy += Number(m[4]);
    ops.push(`${num(cx)} ${num(cy)} l`);
    cx += Number(m[5]);
    ops.push(`${num(cx)} ${num(cy)} l`, "h");
  }
  return ops.join("\n");
}

interface ContentDoc {
  addContent(data: string): unknown;
  path(d: string): unknown;
}

/** Draws the path's outline (no fill yet) into the document's current page. */
export function addPath(doc: ContentDoc, d: string): void {
  let ops = recorded.get(d);
  if (ops === undefined) {
    if (QR_RUNS.test(d)) {
      ops = runsOps(d);
    } else {
      const lines: string[] = [];
      const add = doc.addContent;
      doc.addContent = (data: string) => {
        lines.push(data);
        return doc;
      };
      try {
        doc.path(d);
      } finally {
        doc.addContent = add;
      }
      ops = lines.join("\n");
      recorded.set(d, ops);
    }
  }
  if (ops) doc.addContent(ops);
}
