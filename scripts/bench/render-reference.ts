import { PDFDocument, rgb, StandardFonts } from "pdf-lib";
import type { CampaignRenderContext } from "@/server/programme/drafts/render";
import { responseLink } from "@/server/programme/drafts/response-link";
import type { RecipientContact } from "@/server/programme/designs/recipient";
import { newResponseCode } from "@/server/programme/fulfilment/identifiers";
import { qrPath } from "@/server/ground/render/qr";

/** bench:render's cheapest PDF: the same two pages by pdf-lib with its built-in Helvetica (no embedded fonts, no layout, no Unicode). */
export async function pdfLibReference(ctx: CampaignRenderContext, c: RecipientContact): Promise<Uint8Array> {
  const fill = (t: string) =>
    t.replace(/\{\{(\w+)[^}]*\}\}/g, (_, f: string) => (f === "company" ? (c.account?.name ?? "") : c.firstName));
  const blocks = ctx.design.blocks;
  const url = responseLink(newResponseCode());
  const pdf = await PDFDocument.create();
  const sans = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const ascii = (s: string) => s.replace(/[^\x20-\x7e]/g, "?");
  const front = pdf.addPage([666, 450]);
  front.drawRectangle({ x: 0, y: 0, width: 666, height: 450, color: rgb(0.11, 0.24, 0.35) });
  front.drawText(ascii(fill(blocks.headline ?? "")), {
    x: 45,
    y: 250,
    size: 30,
    font: bold,
    color: rgb(1, 1, 1),
    maxWidth: 520,
    lineHeight: 34,
  });
  const back = pdf.addPage([666, 450]);
  let y = 380;
  for (const line of fill(blocks.body ?? "").split("\n")) {
    back.drawText(ascii(line), { x: 30, y, size: 10.5, font: sans, maxWidth: 300, lineHeight: 13 });
    y -= 30;
  }
  back.drawText(ascii(blocks.signOff ?? ""), { x: 30, y: 120, size: 16, font: sans });
  back.drawSvgPath(qrPath(`${url}?via=qr`, 0, 0, 61), { x: 30, y: 90 });
  const lines = [
    `${c.firstName} ${c.lastName}`,
    c.account?.name ?? "",
    c.addressLine1 ?? "",
    `${c.city}, ${c.region} ${c.postalCode}`,
  ];
  lines.forEach((l, k) => back.drawText(ascii(l), { x: 380, y: 180 - k * 12, size: 10, font: sans }));
  return pdf.save();
}
