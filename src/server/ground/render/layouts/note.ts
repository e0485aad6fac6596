import { recipientBlock } from "../page-specs";
import { inch } from "../scene";
import { type RenderInput, type RenderIssue, recipientLang } from "../input";
import { PageBuilder } from "./common";

export const NOTE_LAYOUTS = {
  plain: { label: "Plain", description: "A white card written in the handwriting font." },
  lined: { label: "Lined", description: "Faint ruled lines under the handwriting, like a notepad." },
  monogram: { label: "Monogram", description: "The logo (or the company's initial) at the top, then the note." },
} as const;

const INK = "#1f3566";

/** A 5 x 7 in note card in a handwriting font, and its A7 envelope addressed by the same hand. */
export function note(input: RenderInput, issues: RenderIssue[], w: number, h: number) {
  const card = new PageBuilder("Card", w, h, issues, recipientLang(input));
  card.background(input.layout === "lined" ? "#fffdf6" : "#ffffff");
  const m = inch(0.45);
  let top = m;
  if (input.layout === "monogram") {
    if (input.logo) card.image(input.logo, { x: m, y: inch(0.3), w: w - 2 * m, h: inch(0.45) }, "center");
    else
      card.text(
        "companyName",
        input.companyName.slice(0, 1).toUpperCase(),
        { x: m, y: inch(0.25), w: w - 2 * m, h: inch(0.5) },
        { family: input.fonts.heading, weight: 700, size: 26, color: input.colors.primary, align: "center" },
      );
    top = inch(0.9);
  }
  const hand = input.fonts.handwriting;
  const size = 19;
  const lead = 1.3;
  if (input.layout === "lined") {
    for (let y = top + size * lead; y < h - inch(0.4); y += size * lead)
      card.add({ kind: "line", x1: m, y1: y + 3, x2: w - m, y2: y + 3, stroke: "#c5d3e8", lineWidth: 0.6 });
  }
  const qr = inch(0.55);
  card.text(
    "headline",
    input.text.headline,
    { x: m, y: top, w: w - 2 * m, h: size * lead },
    { family: hand, weight: 400, size, minSize: 13, color: INK, lineHeight: lead },
  );
  const bodyTop = top + size * lead;
  const signH = input.signature ? inch(0.85) : size * lead * 1.2;
  const bodyH = h - inch(0.35) - qr - inch(0.1) - signH - bodyTop;
  card.text(
    "body",
    input.text.body,
    { x: m, y: bodyTop, w: w - 2 * m, h: bodyH },
    { family: hand, weight: 400, size, minSize: 12, color: INK, lineHeight: lead },
    { required: true },
  );
  card.text(
    "signOff",
    input.text.signOff,
    { x: w / 2, y: bodyTop + bodyH, w: w / 2 - m, h: size * lead * 1.2 },
    { family: hand, weight: 400, size: size + 2, minSize: 12, color: INK, align: "right" },
  );
  if (input.signature)
    card.image(
      input.signature,
      { x: w / 2, y: bodyTop + bodyH + size * lead * 1.1, w: w / 2 - m, h: inch(0.4) },
      "right",
    );
  card.qr(input.response.url, m, h - inch(0.3) - qr, qr);
  card.text(
    "cta",
    `${input.text.cta}\n${input.response.label}`,
    { x: m + qr + 6, y: h - inch(0.3) - qr, w: w / 2, h: qr },
    { family: input.fonts.body, weight: 400, size: 7, minSize: 5.5, color: "#495057", valign: "middle" },
  );

  // A7 envelope (7.25 x 5.25 in), addressed in the same handwriting.
  const ew = inch(7.25);
  const eh = inch(5.25);
  const env = new PageBuilder("Envelope", ew, eh, issues, recipientLang(input));
  env.background("#fbf8f1");
  env.text(
    "returnAddress",
    [input.companyName, ...input.returnAddress].join("\n"),
    { x: inch(0.35), y: inch(0.3), w: inch(2.8), h: inch(0.95) },
    { family: hand, weight: 400, size: 11, minSize: 8, color: INK, lineHeight: 1.15 },
  );
  env.clearZone({ x: ew - inch(1.35), y: inch(0.25), w: inch(1.1), h: inch(0.95) }, "stamp");
  const block = recipientBlock("handwritten", input.size, hand);
  env.text("address", input.recipient.addressLines.join("\n"), block.box, {
    family: block.family,
    weight: 400,
    size: block.size,
    minSize: block.minSize,
    color: INK,
    lineHeight: block.lineHeight,
  });
  return [card.page, env.page];
}
