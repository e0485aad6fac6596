import { inch } from "../scene";
import { type RenderInput, type RenderIssue, recipientLang } from "../input";
import { artwork, PageBuilder } from "./common";

export const GIFT_LAYOUTS = {
  classic: { label: "Classic", description: "A white note card naming the gift, with the logo and an accent rule." },
  bold: { label: "Bold", description: "The brand's primary colour with white type and the chosen artwork." },
  minimal: { label: "Minimal", description: "The note in the handwriting font on a plain card." },
} as const;

/** The note card packed with a gift (the gift ships to the recipient's street address; never to a PO box). */
export function giftCard(input: RenderInput, issues: RenderIssue[], w: number, h: number) {
  const p = new PageBuilder("Note card", w, h, issues, recipientLang(input));
  const bold = input.layout === "bold";
  const ink = bold ? "#ffffff" : input.colors.text;
  p.background(bold ? input.colors.primary : "#ffffff");
  if (bold && input.image !== "none" && input.image !== "logo")
    for (const item of artwork(
      input.image,
      { x: -inch(0.125), y: -inch(0.125), w: w + inch(0.25), h: inch(0.125) + inch(0.5) },
      input.colors,
    ))
      p.add(item);
  const m = inch(0.35);
  if (input.logo && input.layout === "classic") p.image(input.logo, { x: m, y: m, w: inch(1.4), h: inch(0.4) });
  else if (input.layout !== "minimal")
    p.text(
      "companyName",
      input.companyName,
      { x: m, y: m, w: w / 2, h: inch(0.3) },
      { family: input.fonts.heading, weight: 700, size: 10, minSize: 7, color: ink },
    );
  if (input.gift)
    p.text(
      "headline",
      `A gift for you: ${input.gift.name}`,
      { x: w / 2, y: m, w: w / 2 - m, h: inch(0.4) },
      {
        family: input.fonts.body,
        weight: 700,
        size: 8,
        minSize: 6,
        color: bold ? "#ffffff" : input.colors.accent,
        align: "right",
      },
    );
  if (input.layout === "classic")
    p.add({ kind: "rect", x: m, y: inch(0.82), w: w - 2 * m, h: 1.5, fill: input.colors.accent });
  const minimal = input.layout === "minimal";
  const textFamily = minimal ? input.fonts.handwriting : input.fonts.body;
  const top = inch(0.95);
  p.text(
    "headline",
    input.text.headline,
    { x: m, y: top, w: w - 2 * m, h: inch(0.45) },
    {
      family: minimal ? input.fonts.handwriting : input.fonts.heading,
      weight: minimal ? 400 : 700,
      size: minimal ? 18 : 15,
      minSize: 10,
      color: ink,
    },
  );
  const qr = inch(0.55);
  p.text(
    "body",
    input.text.body,
    { x: m, y: top + inch(0.5), w: w - 2 * m - qr - inch(0.1), h: h - top - inch(0.5) - inch(0.8) },
    {
      family: textFamily,
      weight: 400,
      size: minimal ? 15 : 9.5,
      minSize: minimal ? 10 : 7,
      color: ink,
      lineHeight: 1.3,
    },
    { required: true },
  );
  p.text(
    "signOff",
    input.text.signOff,
    { x: m, y: h - inch(0.75), w: w / 2, h: inch(0.4) },
    { family: input.fonts.handwriting, weight: 400, size: 15, minSize: 10, color: ink },
  );
  p.add({ kind: "rect", x: w - m - qr - 3, y: h - m - qr - 3, w: qr + 6, h: qr + 6, fill: "#ffffff" });
  p.qr(input.response.url, w - m - qr, h - m - qr, qr);
  p.text(
    "cta",
    input.text.cta,
    { x: w - m - qr - inch(2.2), y: h - m - qr, w: inch(2.1), h: qr },
    { family: input.fonts.body, weight: 400, size: 7, minSize: 5.5, color: ink, align: "right", valign: "middle" },
  );
  return [p.page];
}
