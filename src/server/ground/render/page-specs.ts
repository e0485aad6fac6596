import type { TFontFamily } from "./fonts";
import { inch, mm } from "./scene";

/**
 * Print specifications. Postcards, cards and gift cards are printed with 0.125 in (3.175 mm) of
 * bleed on each side (Lob's postcard files are 4.25 x 6.25 in for a 4 x 6 in card); a letter's file
 * is its trim exactly, with no bleed (Lob: "All pages of a supplied PDF file must be sized at
 * 8.5"x11""). Text stays inside a safe zone 0.125 in inside the trim. Sizes are width x height as the
 * piece is read (postcards and cards landscape).
 */
export const BLEED = inch(0.125);
export const SAFE = inch(0.125);

export const FORMATS = ["postcard", "letter", "handwritten", "gift"] as const;
export type TFormat = (typeof FORMATS)[number];

export interface SizeSpec {
  label: string;
  /** Trim size in points. */
  w: number;
  h: number;
}

export const SIZES = {
  postcard: {
    "4x6": { label: "4 × 6 in postcard", w: inch(6), h: inch(4) },
    "6x9": { label: "6 × 9 in postcard", w: inch(9), h: inch(6) },
    "6x11": { label: "6 × 11 in postcard", w: inch(11), h: inch(6) },
  },
  letter: {
    us_letter: { label: "US Letter (8.5 × 11 in), tri-folded for a #10 window envelope", w: inch(8.5), h: inch(11) },
    a4: { label: "A4 (210 × 297 mm), folded for a DL window envelope (DIN 5008 B)", w: mm(210), h: mm(297) },
  },
  handwritten: {
    "5x7": { label: "5 × 7 in note card with an A7 envelope", w: inch(7), h: inch(5) },
  },
  gift: {
    "4x6": { label: "4 × 6 in note card packed with the gift", w: inch(6), h: inch(4) },
  },
} as const satisfies Record<TFormat, Record<string, SizeSpec>>;

export const DEFAULT_SIZE: Record<TFormat, string> = {
  postcard: "6x9",
  letter: "us_letter",
  handwritten: "5x7",
  gift: "4x6",
};

export function sizeSpec(format: TFormat, size: string): SizeSpec | null {
  return (SIZES[format] as Record<string, SizeSpec>)[size] ?? null;
}

/**
 * The address side of a postcard, as USPS requires it kept clear (inches from the trim's top left):
 * the address block area in the lower right with the barcode clear zone along the bottom edge,
 * and the postage (indicia) area in the upper right. Artwork and message stay left of `contentRight`.
 */
export function postcardBackZones(size: "4x6" | "6x9" | "6x11") {
  const W = size === "4x6" ? 6 : size === "6x9" ? 9 : 11;
  const H = size === "4x6" ? 4 : 6;
  const addressW = size === "4x6" ? 3.2835 : 4;
  return {
    postage: { x: W - 0.25 - 1.0, y: 0.25, w: 1.0, h: 0.85 },
    address: { x: W - 0.275 - addressW, y: H - 0.625 - 2.375 + 0.125, w: addressW, h: 2.375 - 0.125 },
    barcode: { x: W - 4.75, y: H - 0.625, w: 4.75, h: 0.625 },
    contentRight: W - 0.275 - addressW - 0.25,
  };
}

/** Where the window envelope shows the recipient's address on a letter (from the trim's top left, in points). */
export function letterWindows(size: "us_letter" | "a4") {
  if (size === "a4") {
    // DIN 5008 form B: the address field begins 45 mm from the top and 20 mm from the left, 85 x 45 mm,
    // with the return line in its first 17.7 mm; fold marks at 105 mm and 210 mm.
    return {
      returnLine: { x: mm(20), y: mm(45 + 8), w: mm(85), h: mm(6) },
      recipient: { x: mm(20), y: mm(45 + 17.7), w: mm(85), h: mm(27.3) },
      vendorBlock: null,
      folds: [mm(105), mm(210)],
      bodyTop: mm(105),
    };
  }
  // #10 double-window envelope, letter tri-folded, placed as Lob's letter template places it
  // (lob/examples letters/8.5x11-letter.html, address_placement top_first_page): the return-address
  // window 0.625 in from the left and 0.5 in from the top (3.25 x 0.875 in), the recipient's window
  // at 1.7 in (4 x 1 in), and the white box Lob prints its address block in (3.15 x 2 in at 0.6, 0.84 in).
  return {
    returnLine: { x: inch(0.695), y: inch(0.84), w: inch(3.11), h: inch(0.44) },
    recipient: { x: inch(0.625), y: inch(1.7), w: inch(4), h: inch(1) },
    vendorBlock: { x: inch(0.6), y: inch(0.84), w: inch(3.15), h: inch(2) },
    folds: [inch(11 / 3), inch(22 / 3)],
    bodyTop: inch(3.67),
  };
}

/**
 * Where the recipient's address is printed, per format and size, with the font the layouts set it
 * in and the smallest size they may shrink it to: the layouts draw the address here, and the
 * mailability audit measures an address against the same block (address_too_long). A gift's card
 * carries no address; the gift ships with the vendor's label, measured as a 4 × 6 in postcard's block.
 */
export function recipientBlock(format: TFormat, size: string, handwriting: TFontFamily = "caveat") {
  if (format === "letter") {
    const win = letterWindows(size === "a4" ? "a4" : "us_letter").recipient;
    return {
      box: { x: win.x + 4, y: win.y + 4, w: win.w - 8, h: win.h - 8 },
      family: "noto-sans" as const,
      size: 10,
      minSize: 7.5,
      lineHeight: 1.18,
    };
  }
  if (format === "handwritten") {
    // The A7 envelope (7.25 x 5.25 in), addressed in the design's handwriting.
    return {
      box: { x: inch(2.2), y: inch(2.0), w: inch(7.25) - inch(2.6), h: inch(2.2) },
      family: handwriting,
      size: 17,
      minSize: 11,
      lineHeight: 1.2,
    };
  }
  const postcardSize = format === "gift" ? "4x6" : size === "4x6" || size === "6x11" ? size : "6x9";
  const z = postcardBackZones(postcardSize).address;
  const small = postcardSize === "4x6";
  return {
    box: { x: inch(z.x + 0.2), y: inch(z.y + 0.35), w: inch(z.w - 0.4), h: inch(z.h - 0.5) },
    family: "noto-sans" as const,
    size: small ? 9 : 10,
    minSize: 7,
    lineHeight: 1.2,
  };
}
export type TRecipientBlock = ReturnType<typeof recipientBlock>;
