export type TPrintFileSide = "front" | "back" | "file";

/**
 * The file a vendor prints: the whole PDF for a letter, and for a postcard its front (page 1) or
 * back (page 2) as a one-page PDF, as Lob takes them.
 */
export async function printFileOf(pdf: Uint8Array, side: TPrintFileSide): Promise<Uint8Array> {
  if (side === "file") return pdf;
  const { PDFDocument } = await import("pdf-lib");
  const source = await PDFDocument.load(pdf);
  const index = side === "front" ? 0 : 1;
  if (index >= source.getPageCount()) throw new Error(`The print file has no ${side} page.`);
  const out = await PDFDocument.create();
  const [page] = await out.copyPages(source, [index]);
  out.addPage(page);
  return out.save();
}
