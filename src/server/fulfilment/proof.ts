import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib";
import QRCode from "qrcode";
import type { PieceCopy } from "./copy";

/** Page sizes in points (1/72 inch), landscape for cards. */
const SIZES = {
  postcard: [648, 432], // 9 x 6 in
  letter: [612, 792], // US Letter
  handwritten: [504, 360], // 7 x 5 in note card
  gift: [432, 288], // 6 x 4 in gift card insert
} as const;

export interface ProofInput {
  format: keyof typeof SIZES;
  copy: PieceCopy;
  addressLines: string[];
  returnAddress: string;
  accentColor: string;
  responseUrl: string;
  /** What is printed under the QR code, e.g. "acme.example/r/Ab3dE9xYz1". */
  responseLabel: string;
  pieceId: string;
}

function hexColor(hex: string) {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex);
  const n = m ? parseInt(m[1], 16) : 0x1c7ed6;
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}

/** PDF standard fonts speak WinAnsi: replace what they cannot draw. */
const printable = (s: string) => s.replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/[–—]/g, "-").replace(/…/g, "...").replace(/[^\x20-\x7E\xA0-\xFF]/g, "?");

/** Greedy word wrap to a width (of printable text). */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of printable(text).split("\n")) {
    let line = "";
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const next = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) > width && line) {
        lines.push(line);
        line = word;
      } else line = next;
    }
    lines.push(line);
  }
  return lines;
}

function drawLines(page: PDFPage, lines: string[], x: number, y: number, font: PDFFont, size: number, leading = 1.35) {
  lines.forEach((line, i) => page.drawText(printable(line), { x, y: y - i * size * leading, size, font, color: rgb(0.1, 0.1, 0.12) }));
  return y - lines.length * size * leading;
}

/** The QR code as vector rectangles, one per run of dark modules in a row: crisp at any resolution. */
function drawQr(page: PDFPage, url: string, x: number, y: number, size: number) {
  const qr = QRCode.create(url, { errorCorrectionLevel: "M" });
  const n = qr.modules.size;
  const cell = size / (n + 8);
  const black = rgb(0, 0, 0);
  page.drawRectangle({ x, y, width: size, height: size, color: rgb(1, 1, 1) });
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (!qr.modules.get(r, c)) continue;
      let run = 1;
      while (c + run < n && qr.modules.get(r, c + run)) run++;
      page.drawRectangle({ x: x + (c + 4) * cell, y: y + size - (r + 5) * cell, width: run * cell, height: cell, color: black });
      c += run - 1;
    }
  }
}

/**
 * A print-ready proof of one piece: the recipient's copy, the campaign's design (accent colour,
 * format), the address block and a QR code of the response link. Postcards have a front and a
 * back; letters, notes and gift inserts are one page.
 */
export async function renderProof(input: ProofInput): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Proof ${input.pieceId}`);
  pdf.setProducer("Direct Mail Programme sandbox print");
  pdf.setCreationDate(new Date(0));
  pdf.setModificationDate(new Date(0));
  const [w, h] = SIZES[input.format];
  const accent = hexColor(input.accentColor);
  const sans = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const script = await pdf.embedFont(StandardFonts.TimesRomanItalic);
  const bodyFont = input.format === "handwritten" ? script : sans;
  const margin = 36;

  if (input.format === "postcard") {
    const front = pdf.addPage([w, h]);
    front.drawRectangle({ x: 0, y: 0, width: w, height: h, color: accent });
    drawLines(front, wrap(input.copy.headline, bold, 34, w - 2 * margin), margin, h / 2 + 30, bold, 34);
    front.drawText(printable(input.returnAddress.split(",")[0] ?? ""), { x: margin, y: margin, size: 12, font: sans, color: rgb(1, 1, 1) });
  }

  const page = pdf.addPage([w, h]);
  page.drawRectangle({ x: 0, y: h - 8, width: w, height: 8, color: accent });
  const columns = input.format === "postcard";
  const textWidth = columns ? w / 2 - margin - 12 : w - 2 * margin;
  let y = h - margin - 10;
  if (!columns) y = drawLines(page, wrap(input.copy.headline, bold, 18, textWidth), margin, y, bold, 18) - 8;
  y = drawLines(page, wrap(input.copy.body, bodyFont, input.format === "handwritten" ? 15 : 11, textWidth), margin, y, bodyFont, input.format === "handwritten" ? 15 : 11);
  if (input.copy.signOff) drawLines(page, [input.copy.signOff], margin, y - 10, input.format === "handwritten" ? script : bold, 12);

  const qrSize = 84;
  const qrX = columns ? w / 2 - margin - qrSize + 12 : w - margin - qrSize;
  drawQr(page, input.responseUrl, qrX, margin + 12, qrSize);
  page.drawText(printable(input.responseLabel), { x: columns ? margin : qrX - 4, y: margin, size: 8, font: sans, color: rgb(0.25, 0.25, 0.3) });

  const addressX = columns ? w / 2 + 24 : margin;
  const addressY = columns ? h / 2 : margin + 110;
  drawLines(page, [input.returnAddress], addressX, columns ? h - margin - 10 : h - margin - 2 - 26, sans, 7);
  drawLines(page, input.addressLines, addressX, addressY, sans, 11);
  if (columns) page.drawLine({ start: { x: w / 2, y: margin }, end: { x: w / 2, y: h - margin }, thickness: 0.5, color: rgb(0.7, 0.7, 0.75) });
  return pdf.save();
}
