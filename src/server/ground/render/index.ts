import type { RenderInput, RenderIssue } from "./input";
import { PageBuilder } from "./layouts/common";
import { giftCard, GIFT_LAYOUTS } from "./layouts/gift";
import { letter, LETTER_LAYOUTS } from "./layouts/letter";
import { note, NOTE_LAYOUTS } from "./layouts/note";
import { postcard, POSTCARD_LAYOUTS } from "./layouts/postcard";
import { sizeSpec, type TFormat } from "./page-specs";
import { writePdf } from "./pdf";
import { rasterisePage, rasterisePageAsync, type RasterOptions } from "./raster";
import type { Scene } from "./scene";

/**
 * The one renderer of the service. A piece is laid out once into a scene (./scene.ts) by its
 * format's layout; the print PDF (./pdf.ts, PDFKit) and every preview, thumbnail and agent image
 * (./raster.ts, the same glyph outlines rasterised by resvg) are written from that scene. So the
 * browser preview and the print file share the code that placed every line and the font files
 * every glyph came from: what a person approves is what is printed.
 *
 * Why this design (see docs/brand-designs-drafts.md, "The renderer"): react-pdf lays out well but took 120-220 ms per
 * 6x9 postcard here (its Yoga layout plus per-document font parsing) and has no raster output;
 * satori + resvg make excellent images but turn text into outlines, so the PDF would carry no text
 * to search or extract; pdf-lib cannot position shaped glyph runs. fontkit (shaping, metrics,
 * subsetting) + PDFKit (PDF objects, embedded TrueType subsets with ToUnicode) + resvg (raster)
 * gives real text, full Unicode through per-character font fallback, and 110 to 180 drafts per
 * CPU-second for a 6x9 postcard on one thread (npm run bench:render; the drafts job renders on two).
 */
export const LAYOUTS = {
  postcard: POSTCARD_LAYOUTS,
  letter: LETTER_LAYOUTS,
  handwritten: NOTE_LAYOUTS,
  gift: GIFT_LAYOUTS,
} as const satisfies Record<TFormat, Record<string, { label: string; description: string }>>;

export function isLayout(format: TFormat, layout: string): boolean {
  return Object.hasOwn(LAYOUTS[format], layout);
}

export interface Rendered {
  scene: Scene;
  issues: RenderIssue[];
}

/** Lays out one piece. Throws only for a format/size/layout that does not exist (validated before). */
export function layoutPiece(input: RenderInput): Rendered {
  const spec = sizeSpec(input.format, input.size);
  if (!spec || !isLayout(input.format, input.layout))
    throw new Error(`No ${input.layout} layout in ${input.size} for ${input.format}s.`);
  const issues: RenderIssue[] = [];
  const build = { postcard, letter, handwritten: note, gift: giftCard }[input.format];
  const pages = build(input, issues, spec.w, spec.h);
  if (input.specimen) {
    // The mark goes on top of everything, on every page.
    for (const page of pages) {
      const mark = new PageBuilder(
        page.label,
        page.width - 2 * page.bleed,
        page.height - 2 * page.bleed,
        [],
        undefined,
        page.bleed,
      );
      mark.specimen({ family: "noto-sans" });
      page.items.push(...mark.page.items);
    }
  }
  return { scene: { title: input.title, pages }, issues: dedupe(issues) };
}

function dedupe(issues: RenderIssue[]): RenderIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.block}|${i.kind}|${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The print PDF of a laid-out piece. */
export function piecePdf(rendered: Rendered): Promise<Buffer> {
  return writePdf(rendered.scene);
}

const pageOf = (rendered: Rendered, page: number) =>
  rendered.scene.pages[Math.min(Math.max(page, 0), rendered.scene.pages.length - 1)];

/** One page as a PNG (preview, thumbnail, or the image an agent sees), rasterised on the calling thread: tests and scripts. */
export function piecePng(rendered: Rendered, page: number, opts: RasterOptions): Buffer {
  return rasterisePage(pageOf(rendered, page), opts);
}

/** piecePng for requests: the image decoding and rasterising run on libuv's thread pool, not the event loop. */
export function piecePngAsync(rendered: Rendered, page: number, opts: RasterOptions): Promise<Buffer> {
  return rasterisePageAsync(pageOf(rendered, page), opts);
}

export type { RenderInput, RenderIssue } from "./input";
