import { contrastRatio } from "@/server/programme/brand/contrast";
import type { PageBrand } from "@/server/programme/responses/page-model";

const HEX = /^#[0-9a-fA-F]{6}$/;

/** The colour mixed toward black, step by step, until it has `min` contrast against `background`. */
export function readableOn(color: string, background: string, min: number): string {
  let c = HEX.test(color) ? color.toLowerCase() : "#1f2328";
  for (let i = 0; i < 20 && contrastRatio(c, background) < min; i++) {
    const n = parseInt(c.slice(1), 16);
    const dim = (v: number) => Math.max(0, Math.round(v * 0.88));
    c = `#${[(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => dim(v).toString(16).padStart(2, "0")).join("")}`;
  }
  return c;
}

const STACKS = {
  sans: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  serif: "Georgia, 'Times New Roman', serif",
  hand: "'Segoe Script', 'Bradley Hand', cursive",
};

/** The web font files the pages use: Latin slices of the brand kit's bundled fonts (the rest falls back to system fonts). */
export const FONT_FILES = {
  "noto-sans": {
    family: "Noto Sans",
    regular: "noto-sans-latin-400-normal.woff2",
    bold: "noto-sans-latin-700-normal.woff2",
    stack: STACKS.sans,
  },
  "noto-serif": {
    family: "Noto Serif",
    regular: "noto-serif-latin-400-normal.woff2",
    bold: "noto-serif-latin-700-normal.woff2",
    stack: STACKS.serif,
  },
  caveat: { family: "Caveat", regular: "caveat-latin-400-normal.woff2", bold: null, stack: STACKS.hand },
  "patrick-hand": {
    family: "Patrick Hand",
    regular: "patrick-hand-latin-400-normal.woff2",
    bold: null,
    stack: STACKS.hand,
  },
  "dancing-script": {
    family: "Dancing Script",
    regular: "dancing-script-latin-400-normal.woff2",
    bold: null,
    stack: STACKS.hand,
  },
} as const;

export interface PageTheme {
  /** Buttons' background under white text, and headings: at least 4.5:1 on white. */
  primary: string;
  /** Links and the focus ring: at least 4.5:1 on white. */
  accent: string;
  /** Body text: at least 4.5:1 on white. */
  text: string;
  fontFaces: string;
  heading: string;
  body: string;
  hand: string;
}

/** The brand kit's colours and fonts, made to pass WCAG AA contrast on the page's white card. */
export function pageTheme(brand: PageBrand): PageTheme {
  const face = (family: string, file: string, weight: number) =>
    `@font-face{font-family:"${family}";src:url("/r/assets/${file}") format("woff2");font-weight:${weight};font-style:normal;font-display:swap;unicode-range:U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD;}`;
  const heading = FONT_FILES[brand.fonts.heading];
  const body = FONT_FILES[brand.fonts.body];
  const hand = FONT_FILES[brand.fonts.handwriting];
  const faces = new Set<string>([
    face(heading.family, heading.bold, 700),
    face(body.family, body.regular, 400),
    face(body.family, body.bold, 700),
    face(hand.family, hand.regular, 400),
  ]);
  return {
    primary: readableOn(brand.colors.primary, "#ffffff", 4.5),
    accent: readableOn(brand.colors.accent, "#ffffff", 4.5),
    text: readableOn(brand.colors.text, "#ffffff", 4.5),
    fontFaces: [...faces].join(""),
    heading: `"${heading.family}", ${heading.stack}`,
    body: `"${body.family}", ${body.stack}`,
    hand: `"${hand.family}", ${hand.stack}`,
  };
}
