import type { TCjkLang, TFontFamily } from "./fonts";
import type { TFormat } from "./page-specs";
import type { ImageAsset } from "./scene";

/** The text blocks a design has; a recipient's draft may override the first three. */
export const BLOCKS = ["headline", "body", "signOff", "cta"] as const;
export type TBlock = (typeof BLOCKS)[number];

/** Vector artworks a design can use as its image, drawn in the design's colours. */
export const ARTWORKS = ["waves", "dots", "stripes", "sunrise"] as const;
export type TArtwork = (typeof ARTWORKS)[number];

/** Everything the renderer needs for one piece, with merge fields already filled. */
export interface RenderInput {
  title: string;
  format: TFormat;
  size: string;
  layout: string;
  colors: { primary: string; accent: string; text: string };
  fonts: { heading: TFontFamily; body: TFontFamily; handwriting: TFontFamily };
  companyName: string;
  logo: ImageAsset | null;
  signature: ImageAsset | null;
  /** "logo", "none", or an artwork. */
  image: "logo" | "none" | TArtwork;
  returnAddress: string[];
  text: Record<TBlock, string>;
  /** The recipient's country (ISO code as stored) decides the glyph forms of Han characters (see recipientLang). */
  recipient: { name: string; addressLines: string[]; country?: string | null };
  /** The printed response link and what is printed under the QR code. */
  response: { url: string; label: string };
  gift: { name: string; description: string } | null;
  /** The free audit plan: every page carries "Specimen — not mailed". */
  specimen: boolean;
  /**
   * The print vendor that prints the recipient's address block itself (Lob: address, postage and
   * barcode in its own ink-free area), by name; the print file then leaves that area blank and the
   * preview shows the address there, marked as the vendor's. Null: the service prints it.
   */
  addressPrintedBy?: string | null;
}

export interface RenderIssue {
  block: TBlock | "address" | "returnAddress" | "companyName";
  kind: "overflow" | "shrunk" | "missing_glyphs";
  message: string;
  /** For missing_glyphs: the characters no bundled font draws. */
  chars?: string[];
}

const CJK_BY_COUNTRY: Record<string, TCjkLang> = {
  JP: "ja",
  JPN: "ja",
  JAPAN: "ja",
  日本: "ja",
  KR: "ko",
  KOR: "ko",
  "SOUTH KOREA": "ko",
  대한민국: "ko",
  한국: "ko",
};

/**
 * The language a piece's Han characters are drawn in: Japanese for a recipient in Japan, Korean for
 * one in Korea, otherwise none (Chinese forms). Each text block still turns Japanese when it has
 * kana and Korean when it has Hangul (text.ts, textLang), so a Japanese name is drawn with Japanese
 * forms on a piece to any country as soon as it is written with kana.
 */
export function recipientLang(input: Pick<RenderInput, "recipient">): TCjkLang | undefined {
  const country = input.recipient.country?.trim().toUpperCase();
  return country ? CJK_BY_COUNTRY[country] : undefined;
}
