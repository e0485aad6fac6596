import type { TFontFamily } from "./fonts";
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
  recipient: { name: string; addressLines: string[] };
  /** The printed response link and what is printed under the QR code. */
  response: { url: string; label: string };
  gift: { name: string; description: string } | null;
  /** The free audit plan: every page carries "Specimen — not mailed". */
  specimen: boolean;
}

export interface RenderIssue {
  block: TBlock | "address" | "returnAddress" | "companyName";
  kind: "overflow" | "shrunk" | "missing_glyphs";
  message: string;
}
