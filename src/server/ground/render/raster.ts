import { renderAsync, Resvg } from "@resvg/resvg-js";
import type { FontRef } from "./fonts";
import { Lru } from "./lru";
import type { GlyphRun, ImageAsset, ScenePage, SceneItem } from "./scene";

const glyphPaths = new Map<string, string>();
/** A glyph's outline as SVG path data in font units (y up), from the same font file the PDF embeds. */
function glyphPath(font: FontRef, id: number): string {
  const key = `${font.key}:${id}`;
  let d = glyphPaths.get(key);
  if (d === undefined) {
    d = font.font.getGlyph(id).path.toSVG();
    if (glyphPaths.size > 100_000) glyphPaths.clear();
    glyphPaths.set(key, d);
  }
  return d;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
const n = (v: number) => Math.round(v * 100) / 100;

function runSvg(run: GlyphRun, defs: Map<string, string>): string {
  const scale = run.size / run.font.font.unitsPerEm;
  return run.glyphs
    .map((g) => {
      const d = glyphPath(run.font, g.id);
      if (!d) return "";
      const key = `${run.font.key}:${g.id}`;
      let id = defs.get(key);
      if (!id) {
        id = `g${defs.size}`;
        defs.set(key, id);
      }
      return `<use href="#${id}" transform="translate(${n(run.x + g.x)} ${n(run.y + g.y)}) scale(${scale} ${-scale})" fill="${run.color}"/>`;
    })
    .join("");
}

/** An image's data: URI, encoded once per image (by its content hash; at most 64 MB of them). */
const dataUris = new Lru<string, string>(100, (uri) => uri.length, 64 * 1024 * 1024);
function dataUri(image: ImageAsset): string {
  let uri = dataUris.get(image.id);
  if (uri === undefined) {
    uri = `data:${image.mime};base64,${image.bytes.toString("base64")}`;
    dataUris.set(image.id, uri);
  }
  return uri;
}

let clipCount = 0;
function itemSvg(item: SceneItem, defs: Map<string, string>): string {
  switch (item.kind) {
    case "group": {
      const id = `c${clipCount++}`;
      const c = item.clip;
      return `<clipPath id="${id}"><rect x="${n(c.x)}" y="${n(c.y)}" width="${n(c.w)}" height="${n(c.h)}"/></clipPath><g clip-path="url(#${id})">${item.items.map((i) => itemSvg(i, defs)).join("")}</g>`;
    }
    case "rect": {
      const dash = item.dash ? ` stroke-dasharray="${item.dash.join(" ")}"` : "";
      const op = item.opacity !== undefined ? ` opacity="${item.opacity}"` : "";
      return `<rect x="${n(item.x)}" y="${n(item.y)}" width="${n(item.w)}" height="${n(item.h)}"${item.radius ? ` rx="${item.radius}"` : ""} fill="${item.fill ?? "none"}"${item.stroke ? ` stroke="${item.stroke}" stroke-width="${item.lineWidth ?? 1}"` : ""}${dash}${op}/>`;
    }
    case "line":
      return `<line x1="${n(item.x1)}" y1="${n(item.y1)}" x2="${n(item.x2)}" y2="${n(item.y2)}" stroke="${item.stroke}" stroke-width="${item.lineWidth}"${item.dash ? ` stroke-dasharray="${item.dash.join(" ")}"` : ""}/>`;
    case "path":
      return `<path d="${item.d}" fill="${item.fill}"${item.opacity !== undefined ? ` fill-opacity="${item.opacity}"` : ""}/>`;
    case "text": {
      const t = item.rotate
        ? ` transform="rotate(${item.rotate.degrees} ${n(item.rotate.cx)} ${n(item.rotate.cy)})"`
        : "";
      const op = item.opacity !== undefined ? ` opacity="${item.opacity}"` : "";
      return `<g${t}${op}>${item.runs.map((r) => runSvg(r, defs)).join("")}</g>`;
    }
    case "image":
      return `<image x="${n(item.x)}" y="${n(item.y)}" width="${n(item.w)}" height="${n(item.h)}" preserveAspectRatio="none" href="${dataUri(item.image)}"/>`;
  }
}

export interface RasterOptions {
  /** Width of the PNG in pixels. */
  widthPx: number;
  /** "bleed" shows the whole printed sheet; "trim" only what is left after cutting. */
  crop?: "bleed" | "trim";
  /** Draw the preview-only guides (trim line, safe zone, clear zones, overflowing boxes). */
  guides?: boolean;
}

/** The page as SVG: the same items, glyph outlines from the same font files, at the same positions as the PDF. */
export function pageSvg(page: ScenePage, opts: Pick<RasterOptions, "crop" | "guides"> = {}): string {
  const defs = new Map<string, string>();
  const body =
    [...page.items, ...(page.vendor ?? [])].map((i) => itemSvg(i, defs)).join("") +
    (opts.guides ? page.guides.map((i) => itemSvg(i, defs)).join("") : "");
  const glyphDefs = [...defs].map(([key, id]) => {
    const [fontKey, gid] = [key.slice(0, key.lastIndexOf(":")), Number(key.slice(key.lastIndexOf(":") + 1))];
    return `<path id="${id}" d="${esc(glyphPaths.get(`${fontKey}:${gid}`) ?? "")}"/>`;
  });
  const b = opts.crop === "trim" ? page.bleed : 0;
  const w = page.width - 2 * b;
  const h = page.height - 2 * b;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${n(w)}" height="${n(h)}" viewBox="${n(b)} ${n(b)} ${n(w)} ${n(h)}"><defs>${glyphDefs.join("")}</defs><rect x="0" y="0" width="${page.width}" height="${page.height}" fill="#ffffff"/>${body}</svg>`;
}

const resvgOptions = (opts: RasterOptions) => ({
  fitTo: { mode: "width" as const, value: Math.round(opts.widthPx) },
  background: "#ffffff",
  font: { loadSystemFonts: false },
});

/** The page as a PNG, rasterised by resvg from pageSvg, on the calling thread (tests, scripts). */
export function rasterisePage(page: ScenePage, opts: RasterOptions): Buffer {
  return Buffer.from(new Resvg(pageSvg(page, opts), resvgOptions(opts)).render().asPng());
}

/**
 * The same PNG for a request: resvg parses the SVG, decodes the images in it (a PNG logo) and
 * rasterises on libuv's thread pool (renderAsync), so the event loop only builds the SVG text.
 */
export async function rasterisePageAsync(page: ScenePage, opts: RasterOptions): Promise<Buffer> {
  return Buffer.from((await renderAsync(pageSvg(page, opts), resvgOptions(opts))).asPng());
}
