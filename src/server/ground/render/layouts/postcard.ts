import { postcardBackZones, recipientBlock } from "../page-specs";
import { vendorAddressMark } from "./vendor-address";
import { inch } from "../scene";
import { type RenderInput, type RenderIssue, recipientLang } from "../input";
import { artwork, PageBuilder } from "./common";

export const POSTCARD_LAYOUTS = {
  bold: {
    label: "Bold",
    description: "The headline large on the brand's primary colour, with the chosen image behind it.",
  },
  split: { label: "Split", description: "Headline on colour at the left, the logo or artwork at the right." },
  minimal: { label: "Minimal", description: "A white card with an accent bar, the logo and a centred headline." },
} as const;

/** A postcard: the front by layout, and the address side as USPS requires it (see postcardBackZones). */
export function postcard(input: RenderInput, issues: RenderIssue[], w: number, h: number) {
  const size = input.size as "4x6" | "6x9" | "6x11";
  const small = size === "4x6";
  const front = new PageBuilder("Front", w, h, issues, recipientLang(input));
  const m = inch(small ? 0.35 : 0.5);
  const { primary, accent, text } = input.colors;
  const headlineSize = small ? 26 : 38;
  const heading = {
    family: input.fonts.heading,
    weight: 700 as const,
    size: headlineSize,
    minSize: headlineSize * 0.6,
    lineHeight: 1.12,
  };
  const brandMark = (x: number, y: number, bw: number, color: string, align: "left" | "center" = "left") => {
    if (input.logo && input.image !== "logo")
      front.image(input.logo, { x, y, w: bw, h: inch(small ? 0.4 : 0.55) }, align);
    else if (input.image !== "logo")
      front.text(
        "companyName",
        input.companyName,
        { x, y, w: bw, h: inch(0.4) },
        { family: input.fonts.heading, weight: 700, size: 13, minSize: 9, color, align },
      );
  };

  if (input.layout === "split") {
    const split = w * 0.55;
    front.background("#ffffff");
    front.add({
      kind: "rect",
      x: -inch(0.125),
      y: -inch(0.125),
      w: split + inch(0.125),
      h: h + inch(0.25),
      fill: primary,
    });
    const right = { x: split, y: -inch(0.125), w: w - split + inch(0.125), h: h + inch(0.25) };
    if (input.image === "logo" && input.logo)
      front.image(input.logo, { x: split + m, y: m, w: w - split - 2 * m, h: h - 2 * m }, "center");
    else if (input.image !== "none" && input.image !== "logo")
      for (const item of artwork(input.image, right, { primary: accent, accent: primary, text })) front.add(item);
    brandMark(m, m, split - 2 * m, "#ffffff");
    front.text(
      "headline",
      input.text.headline,
      { x: m, y: h * 0.3, w: split - 2 * m, h: h * 0.6 - m },
      { ...heading, color: "#ffffff", valign: "middle" },
      { required: true },
    );
  } else if (input.layout === "minimal") {
    front.background("#ffffff");
    front.add({
      kind: "rect",
      x: -inch(0.125),
      y: -inch(0.125),
      w: w + inch(0.25),
      h: inch(0.125) + inch(0.18),
      fill: accent,
    });
    const top = inch(0.55);
    if (input.image === "logo" && input.logo)
      front.image(input.logo, { x: m, y: top, w: w - 2 * m, h: h * 0.28 }, "center");
    else if (input.image !== "none" && input.image !== "logo")
      for (const item of artwork(input.image, { x: w / 2 - h * 0.18, y: top, w: h * 0.36, h: h * 0.28 }, input.colors))
        front.add(item);
    else brandMark(m, top, w - 2 * m, primary, "center");
    front.text(
      "headline",
      input.text.headline,
      { x: m * 1.5, y: h * 0.42, w: w - 3 * m, h: h * 0.42 },
      { ...heading, color: text, align: "center", valign: "middle" },
      { required: true },
    );
    front.add({ kind: "rect", x: w / 2 - inch(0.5), y: h * 0.88, w: inch(1), h: 2, fill: accent });
  } else {
    front.background(primary);
    const bleedBox = { x: -inch(0.125), y: -inch(0.125), w: w + inch(0.25), h: h + inch(0.25) };
    if (input.image !== "none" && input.image !== "logo")
      for (const item of artwork(input.image, bleedBox, input.colors)) front.add(item);
    if (input.image === "logo" && input.logo) {
      front.add({
        kind: "rect",
        x: m,
        y: m,
        w: inch(small ? 1.6 : 2.2),
        h: inch(small ? 0.7 : 0.9),
        fill: "#ffffff",
        radius: 6,
      });
      front.image(
        input.logo,
        { x: m + 8, y: m + 8, w: inch(small ? 1.6 : 2.2) - 16, h: inch(small ? 0.7 : 0.9) - 16 },
        "center",
      );
    } else brandMark(m, m, w * 0.5, "#ffffff");
    front.add({ kind: "rect", x: m, y: h * 0.34, w: inch(0.6), h: 4, fill: accent });
    front.text(
      "headline",
      input.text.headline,
      { x: m, y: h * 0.34 + 14, w: w * 0.78 - m, h: h * 0.66 - m - 14 },
      { ...heading, color: "#ffffff" },
      { required: true },
    );
  }

  const back = new PageBuilder("Back", w, h, issues, recipientLang(input));
  back.background("#ffffff");
  const z = postcardBackZones(size);
  const left = inch(0.3);
  const right = inch(z.contentRight);
  const textW = right - left;
  back.add({
    kind: "rect",
    x: -inch(0.125),
    y: -inch(0.125),
    w: inch(0.125) + inch(0.12),
    h: h + inch(0.25),
    fill: input.layout === "minimal" ? accent : primary,
  });
  back.text(
    "returnAddress",
    [input.companyName, ...input.returnAddress].join("\n"),
    { x: left, y: inch(0.28), w: textW * 0.75, h: inch(0.62) },
    { family: input.fonts.body, weight: 400, size: 7, minSize: 5.5, color: "#343a40", lineHeight: 1.2 },
  );
  const qr = inch(small ? 0.7 : 0.85);
  // The response block (QR code, call to action and link) sits above the barcode clear zone, which
  // runs along the bottom edge across most of the card: USPS keeps its bottom 5/8 in free of print.
  const qrY = inch(z.barcode.y - 0.1) - qr;
  const bodyTop = inch(small ? 0.85 : 1.0);
  const bodyBottom = qrY - inch(0.15);
  const signH = inch(small ? 0.32 : 0.45);
  back.text(
    "body",
    input.text.body,
    { x: left, y: bodyTop, w: textW, h: bodyBottom - bodyTop - signH },
    {
      family: input.fonts.body,
      weight: 400,
      size: small ? 8.5 : 10.5,
      minSize: small ? 6.5 : 7.5,
      color: text,
      lineHeight: 1.3,
    },
    { required: true },
  );
  back.text(
    "signOff",
    input.text.signOff,
    { x: left, y: bodyBottom - signH, w: textW, h: signH },
    { family: input.fonts.handwriting, weight: 400, size: small ? 13 : 17, minSize: 10, color: text, valign: "bottom" },
  );
  back.qr(input.response.url, left, qrY, qr);
  back.text(
    "cta",
    input.text.cta,
    { x: left + qr + inch(0.12), y: qrY + inch(0.05), w: textW - qr - inch(0.12), h: qr * 0.62 },
    {
      family: input.fonts.body,
      weight: 700,
      size: small ? 8 : 10,
      minSize: 6.5,
      color: primary,
      lineHeight: 1.2,
      valign: "bottom",
    },
  );
  back.text(
    "cta",
    input.response.label,
    { x: left + qr + inch(0.12), y: qrY + qr * 0.68, w: textW - qr - inch(0.12), h: qr * 0.3 },
    { family: input.fonts.body, weight: 400, size: 7, minSize: 5.5, color: "#495057" },
  );
  const toIn = (b: { x: number; y: number; w: number; h: number }) => ({
    x: inch(b.x),
    y: inch(b.y),
    w: inch(b.w),
    h: inch(b.h),
  });
  back.clearZone(toIn(z.postage), "postage");
  back.clearZone(toIn(z.address), "address");
  back.clearZone(toIn(z.barcode), "barcode");
  const block = recipientBlock("postcard", size);
  const vendor = input.addressPrintedBy ?? null;
  back.text(
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
      valign: "top",
    },
    { vendorPrinted: !!vendor },
  );
  if (vendor) vendorAddressMark(back, toIn(z.address), vendor);
  return [front.page, back.page];
}
