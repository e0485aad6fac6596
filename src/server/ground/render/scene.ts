import type { FontRef } from "./fonts";

/**
 * What a page looks like, independent of the output: the renderer lays a piece out once into a
 * scene, then writes that same scene as a PDF (for print) and as an SVG rasterised to PNG (for
 * the browser preview, thumbnails and agents). Units are PDF points (1/72 in), origin at the top
 * left of the page including its bleed, y downwards.
 */

/** One shaped run of glyphs in one font: what the PDF writes as text and the SVG draws as outlines. */
export interface GlyphRun {
  font: FontRef;
  size: number;
  text: string;
  /** A right-to-left piece (./bidi.ts): its glyphs come in drawing order and its brackets are mirrored. */
  rtl?: boolean;
  /** Left edge and baseline. */
  x: number;
  y: number;
  color: string;
  /** Glyph ids with their positions relative to (x, y), in points. */
  glyphs: { id: number; x: number; y: number }[];
  width: number;
}

export interface ImageAsset {
  /** Stable id (a content hash) so each output embeds an image once and caches its conversion. */
  id: string;
  /** PNG or JPEG bytes at print resolution. */
  bytes: Buffer;
  mime: "image/png" | "image/jpeg";
  widthPx: number;
  heightPx: number;
}

export type SceneItem =
  | {
      kind: "rect";
      x: number;
      y: number;
      w: number;
      h: number;
      fill?: string;
      stroke?: string;
      lineWidth?: number;
      radius?: number;
      opacity?: number;
      dash?: number[];
    }
  | { kind: "line"; x1: number; y1: number; x2: number; y2: number; stroke: string; lineWidth: number; dash?: number[] }
  /** An SVG path (absolute coordinates in points), filled. */
  | { kind: "path"; d: string; fill: string; opacity?: number }
  | { kind: "text"; runs: GlyphRun[]; opacity?: number; rotate?: { degrees: number; cx: number; cy: number } }
  | { kind: "image"; image: ImageAsset; x: number; y: number; w: number; h: number }
  /** Items drawn only inside a clipping rectangle. */
  | { kind: "group"; clip: { x: number; y: number; w: number; h: number }; items: SceneItem[] };

export interface ScenePage {
  /** "Front", "Back", "Letter", "Card", "Envelope"... */
  label: string;
  /** The page as printed, including bleed on every side. */
  width: number;
  height: number;
  /** Bleed on each side; the trim box is the page inset by it. */
  bleed: number;
  items: SceneItem[];
  /** Marks only the preview shows (overflowing boxes, clear zones); never printed. */
  guides: SceneItem[];
  /**
   * What the print vendor prints on the piece itself (Lob's address block): every preview shows it
   * where the vendor will print it, the print file leaves that area blank.
   */
  vendor?: SceneItem[];
}

export interface Scene {
  title: string;
  pages: ScenePage[];
}

/** Inches to points. */
export const inch = (n: number) => n * 72;
/** Millimetres to points. */
export const mm = (n: number) => (n * 72) / 25.4;
