/**
 * What Lob checks of a print file, checked here before the piece is sent, so a file Lob would
 * refuse becomes a sentence on the piece instead of a failed request (lob/lob-openapi):
 * - size: remote files have "a 5 MB file size limit" (shared/attributes/remote_file_url.yml) and
 *   Image Prepping says "File sizes should be no larger than 5MB";
 * - pages: a letter's "All pages of a supplied PDF file must be sized at 8.5"x11"" and "the file
 *   limit is 60 pages single-sided" for domestic letters (resources/letters/attributes/ltr_file.yml);
 *   a postcard side is one page "sized at 4.25"x6.25", 6.25"x9.25", or 6.25"x11.25""
 *   (resources/postcards/attributes/psc_front.yml);
 * - images: "Images should be 300 dpi or higher" (lob-api-public.yml, Image Prepping).
 */

const LOB_MAX_FILE_BYTES = 5 * 1024 * 1024;
export const LOB_MAX_LETTER_PAGES = 60;
const LOB_MIN_IMAGE_PPI = 300;

/** The sheet Lob takes, in points (width x height in either orientation). */
const LOB_SHEETS: Record<string, { w: number; h: number; label: string }> = {
  us_letter: { w: 612, h: 792, label: "8.5 × 11 in" },
  "4x6": { w: 6.25 * 72, h: 4.25 * 72, label: "4.25 × 6.25 in" },
  "6x9": { w: 9.25 * 72, h: 6.25 * 72, label: "6.25 × 9.25 in" },
  "6x11": { w: 11.25 * 72, h: 6.25 * 72, label: "6.25 × 11.25 in" },
};

const fits = (w: number, h: number, sheet: { w: number; h: number }) =>
  (Math.abs(w - sheet.w) <= 1 && Math.abs(h - sheet.h) <= 1) ||
  (Math.abs(w - sheet.h) <= 1 && Math.abs(h - sheet.w) <= 1);

/** Null when Lob would take the file; else the sentence saying why it would not. */
export async function lobFileProblem(
  file: Uint8Array,
  p: { product: string; what: string; maxPages: number },
): Promise<string | null> {
  const sheet = LOB_SHEETS[p.product];
  if (!sheet) return `Lob prints no ${p.product} product.`;
  if (file.byteLength > LOB_MAX_FILE_BYTES)
    return `The ${p.what} is ${(file.byteLength / 1024 / 1024).toFixed(1)} MB; Lob takes files of at most 5 MB. Use smaller images in the design.`;
  const { PDFDocument, PDFName, PDFDict, PDFNumber, PDFRawStream, PDFArray, decodePDFRawStream } = await import(
    "pdf-lib"
  );
  let doc: Awaited<ReturnType<typeof PDFDocument.load>>;
  try {
    doc = await PDFDocument.load(file);
  } catch {
    return `The ${p.what} is not a PDF Lob can read.`;
  }
  const pages = doc.getPages();
  if (pages.length === 0) return `The ${p.what} has no pages.`;
  if (pages.length > p.maxPages) return `The ${p.what} has ${pages.length} pages; Lob takes at most ${p.maxPages}.`;
  for (const [i, page] of pages.entries()) {
    const { width, height } = page.getSize();
    if (!fits(width, height, sheet))
      return `Page ${i + 1} of the ${p.what} is ${(width / 72).toFixed(2)} × ${(height / 72).toFixed(2)} in; Lob takes ${sheet.label} exactly.`;
    // Each image's resolution where it is drawn: its pixels over the width it is placed at.
    const xobjects = page.node.Resources()?.lookupMaybe(PDFName.of("XObject"), PDFDict);
    if (!xobjects) continue;
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
    let text = "";
    for (const s of streams)
      if (s instanceof PDFRawStream) text += Buffer.from(decodePDFRawStream(s).decode()).toString("latin1");
    for (const placed of placedImages(text)) {
      const image = xobjects.lookup(PDFName.of(placed.name));
      if (!(image instanceof PDFRawStream) || image.dict.get(PDFName.of("Subtype"))?.toString() !== "/Image") continue;
      const px = image.dict.lookupMaybe(PDFName.of("Width"), PDFNumber)?.asNumber() ?? 0;
      const widthIn = placed.widthPt / 72;
      if (widthIn <= 0 || px <= 0) continue;
      const ppi = px / widthIn;
      if (ppi < LOB_MIN_IMAGE_PPI - 0.5)
        return `An image on page ${i + 1} of the ${p.what} prints at ${Math.round(ppi)} dpi; Lob asks for at least ${LOB_MIN_IMAGE_PPI} dpi. Upload a larger image (at least ${Math.ceil(widthIn * LOB_MIN_IMAGE_PPI)} pixels wide).`;
    }
  }
  return null;
}

type Matrix = [number, number, number, number, number, number];
const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[1] * n[2],
  m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2],
  m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4],
  m[4] * n[1] + m[5] * n[3] + n[5],
];

/**
 * The XObjects a page's content draws and the width each is drawn at (points): the operators q, Q
 * and cm tracked to each Do (an image is drawn in the unit square of the current matrix).
 */
function placedImages(content: string): { name: string; widthPt: number }[] {
  const out: { name: string; widthPt: number }[] = [];
  const stack: Matrix[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const operands: string[] = [];
  for (const token of content.match(/\/[^\s/[\]()<>{}]+|[-+]?\d*\.?\d+|[A-Za-z'"*]+/g) ?? []) {
    if (/^[-+]?\d*\.?\d+$/.test(token) || token.startsWith("/")) {
      operands.push(token);
      continue;
    }
    if (token === "q") stack.push(ctm);
    else if (token === "Q") ctm = stack.pop() ?? [1, 0, 0, 1, 0, 0];
    else if (token === "cm" && operands.length >= 6) {
      const m = operands.slice(-6).map(Number) as Matrix;
      ctm = multiply(m, ctm);
    } else if (token === "Do" && operands.length) {
      const name = operands[operands.length - 1];
      if (name.startsWith("/")) out.push({ name: name.slice(1), widthPt: Math.hypot(ctm[0], ctm[1]) });
    }
    operands.length = 0;
  }
  return out;
}
