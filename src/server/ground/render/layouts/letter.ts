import { letterWindows, recipientBlock } from "../page-specs";
import { inch } from "../scene";
import { type RenderInput, type RenderIssue, recipientLang } from "../input";
import { artwork, PageBuilder } from "./common";
import { vendorAddressMark } from "./vendor-address";

export const LETTER_LAYOUTS = {
  classic: { label: "Classic", description: "Letterhead with the logo at the top right and an accent rule." },
  modern: { label: "Modern", description: "A band of the primary colour down the left edge and a coloured headline." },
  memo: { label: "Memo", description: "Quiet: the company name as a small header and no colour band." },
} as const;

/** A one-page letter with the addresses where the window envelope shows them, and fold marks. */
export function letter(input: RenderInput, issues: RenderIssue[], w: number, h: number) {
  const size = input.size as "us_letter" | "a4";
  const win = letterWindows(size);
  // A letter is printed on its trim exactly: no bleed.
  const p = new PageBuilder("Letter", w, h, issues, recipientLang(input), 0);
  const { primary, accent, text } = input.colors;
  p.background("#ffffff");
  const left = Math.max(win.recipient.x, inch(0.75));
  const right = w - inch(0.75);
  if (input.layout === "modern") {
    p.add({ kind: "rect", x: 0, y: 0, w: inch(0.32), h, fill: primary });
    if (input.image !== "none" && input.image !== "logo")
      for (const item of artwork(input.image, { x: 0, y: 0, w: inch(0.32), h }, input.colors)) p.add(item);
  }
  // Letterhead at the top right, clear of the return-address window.
  const headBox = { x: w / 2 + inch(0.3), y: inch(0.5), w: right - w / 2 - inch(0.3), h: inch(0.7) };
  if (input.layout === "memo") {
    p.text(
      "companyName",
      input.companyName.toUpperCase(),
      { x: headBox.x, y: headBox.y, w: headBox.w, h: inch(0.3) },
      { family: input.fonts.heading, weight: 700, size: 10, minSize: 7, color: text, align: "right" },
    );
  } else if (input.logo) p.image(input.logo, headBox, "right");
  else
    p.text("companyName", input.companyName, headBox, {
      family: input.fonts.heading,
      weight: 700,
      size: 18,
      minSize: 11,
      color: primary,
      align: "right",
      valign: "middle",
    });
  if (input.layout === "classic")
    p.add({ kind: "rect", x: headBox.x, y: headBox.y + headBox.h + 6, w: headBox.w, h: 2, fill: accent });

  // A vendor that prints the address block itself (Lob's top_first_page) prints both window addresses.
  const vendor = input.addressPrintedBy ?? null;
  p.text(
    "returnAddress",
    [input.companyName, ...input.returnAddress].join(", "),
    win.returnLine,
    { family: input.fonts.body, weight: 400, size: 7, minSize: 5.5, color: "#343a40", lineHeight: 1.2 },
    { vendorPrinted: !!vendor },
  );
  p.clearZone(win.recipient, "window");
  const block = recipientBlock("letter", size);
  p.text(
    "address",
    input.recipient.addressLines.join("\n"),
    block.box,
    {
      family: block.family,
      weight: 400,
      size: block.size,
      minSize: block.minSize,
      color: "#000000",
      lineHeight: block.lineHeight,
    },
    { vendorPrinted: !!vendor },
  );
  if (vendor) {
    // The vendor prints its own white address box over this area: nothing of ours goes under it.
    const box = win.vendorBlock ?? {
      x: win.returnLine.x,
      y: win.returnLine.y,
      w: Math.max(win.returnLine.w, win.recipient.w),
      h: win.recipient.y + win.recipient.h - win.returnLine.y,
    };
    p.clearZone(box, "vendor address block");
    vendorAddressMark(p, box, vendor);
  }
  for (const y of win.folds)
    p.add({ kind: "line", x1: 0, y1: y, x2: inch(0.2), y2: y, stroke: "#adb5bd", lineWidth: 0.5 });

  let y = win.bodyTop;
  const headlineColor = input.layout === "memo" ? text : input.layout === "modern" ? accent : primary;
  const headline = p.text(
    "headline",
    input.text.headline,
    { x: left, y, w: right - left, h: inch(0.9) },
    {
      family: input.fonts.heading,
      weight: 700,
      size: input.layout === "memo" ? 14 : 18,
      minSize: 11,
      color: headlineColor,
      lineHeight: 1.15,
    },
    { required: true },
  );
  y += Math.min(headline.height, inch(0.9)) + inch(0.2);
  const qr = inch(0.8);
  const footerTop = h - inch(0.6) - qr;
  const signH = input.signature ? inch(0.9) : inch(0.55);
  const body = p.text(
    "body",
    input.text.body,
    { x: left, y, w: right - left, h: footerTop - inch(0.2) - signH - y },
    { family: input.fonts.body, weight: 400, size: 11, minSize: 8.5, color: text, lineHeight: 1.4 },
    { required: true },
  );
  const signTop = y + Math.min(body.height, footerTop - inch(0.2) - signH - y) + inch(0.15);
  p.text(
    "signOff",
    input.text.signOff,
    { x: left, y: signTop, w: (right - left) / 2, h: inch(0.5) },
    { family: input.fonts.handwriting, weight: 400, size: 22, minSize: 12, color: text },
  );
  if (input.signature) p.image(input.signature, { x: left, y: signTop + inch(0.45), w: inch(1.8), h: inch(0.4) });
  p.qr(input.response.url, right - qr, footerTop, qr);
  p.text(
    "cta",
    input.text.cta,
    { x: left, y: footerTop + inch(0.1), w: right - left - qr - inch(0.2), h: qr * 0.55 },
    {
      family: input.fonts.body,
      weight: 700,
      size: 10.5,
      minSize: 7.5,
      color: primary,
      align: "right",
      valign: "bottom",
    },
  );
  p.text(
    "cta",
    input.response.label,
    { x: left, y: footerTop + qr * 0.65, w: right - left - qr - inch(0.2), h: qr * 0.3 },
    { family: input.fonts.body, weight: 400, size: 8, minSize: 6, color: "#495057", align: "right" },
  );
  return [p.page];
}
