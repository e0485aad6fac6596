import { type Box, layoutText, type TextStyle } from "../text";
import { qrPath } from "../qr";
import { BLEED, SAFE } from "../page-specs";
import type { ImageAsset, ScenePage, SceneItem } from "../scene";
import { inch } from "../scene";
import type { TCjkLang } from "../fonts";
import type { RenderInput, RenderIssue, TArtwork } from "../input";

/** Builds one page in trim coordinates (points from the trim's top left), recording what did not fit. */
export class PageBuilder {
  readonly page: ScenePage;
  constructor(
    label: string,
    readonly w: number,
    readonly h: number,
    private readonly issues: RenderIssue[],
    /** The language hint for Han characters in every text of the page (the recipient's, see recipientLang). */
    private readonly lang?: TCjkLang,
    /** Printed past the trim on each side: postcards have it; a letter's file is its trim exactly (Lob's 8.5 × 11 in). */
    readonly bleed: number = BLEED,
  ) {
    this.page = { label, width: w + 2 * bleed, height: h + 2 * bleed, bleed, items: [], guides: [] };
    this.guide({ kind: "rect", x: 0, y: 0, w, h, stroke: "#868e96", lineWidth: 0.5, dash: [4, 3] });
    this.guide({
      kind: "rect",
      x: SAFE,
      y: SAFE,
      w: w - 2 * SAFE,
      h: h - 2 * SAFE,
      stroke: "#74c0fc",
      lineWidth: 0.5,
      dash: [2, 2],
    });
  }

  private shift(item: SceneItem): SceneItem {
    const b = this.bleed;
    switch (item.kind) {
      case "rect":
      case "image":
        return { ...item, x: item.x + b, y: item.y + b };
      case "line":
        return { ...item, x1: item.x1 + b, y1: item.y1 + b, x2: item.x2 + b, y2: item.y2 + b };
      case "path":
        return { ...item, d: translatePath(item.d, b) };
      case "group":
        return {
          ...item,
          clip: { ...item.clip, x: item.clip.x + b, y: item.clip.y + b },
          items: item.items.map((i) => this.shift(i)),
        };
      case "text":
        return {
          ...item,
          runs: item.runs.map((r) => ({ ...r, x: r.x + b, y: r.y + b })),
          rotate: item.rotate ? { ...item.rotate, cx: item.rotate.cx + b, cy: item.rotate.cy + b } : undefined,
        };
    }
  }

  add(item: SceneItem) {
    this.page.items.push(this.shift(item));
  }
  guide(item: SceneItem) {
    this.page.guides.push(this.shift(item));
  }
  /** An item the print vendor prints itself: shown in every preview, never in the print file. */
  vendorPrinted(item: SceneItem) {
    (this.page.vendor ??= []).push(this.shift(item));
  }

  /** Background over the whole sheet, bleed included. */
  background(color: string) {
    const b = this.bleed;
    this.add({ kind: "rect", x: -b, y: -b, w: this.w + 2 * b, h: this.h + 2 * b, fill: color });
  }

  /** A text block: shrunk to fit within its limits, and reported (with a red outline in the preview) when it still does not. */
  text(
    block: RenderIssue["block"],
    text: string,
    box: Box,
    style: TextStyle,
    opts: { required?: boolean; vendorPrinted?: boolean } = {},
  ) {
    // Address blocks keep their left edge where the post reads them, whatever the script.
    const align = style.align ?? (block === "address" || block === "returnAddress" ? "left" : undefined);
    const fit = layoutText(text, box, { lang: this.lang, ...style, align });
    if (fit.runs.length)
      (opts.vendorPrinted ? this.vendorPrinted.bind(this) : this.add.bind(this))({ kind: "text", runs: fit.runs });
    if (fit.overflow) {
      this.issues.push({
        block,
        kind: "overflow",
        message: `The ${label(block)} does not fit its box even at ${fit.size.toFixed(1)} pt: shorten it.`,
      });
      this.guide({
        kind: "rect",
        x: box.x,
        y: box.y,
        w: box.w,
        h: box.h,
        stroke: "#e03131",
        lineWidth: 1.5,
        dash: [5, 3],
      });
    } else if (fit.size < style.size - 0.01) {
      this.issues.push({
        block,
        kind: "shrunk",
        message: `The ${label(block)} was set at ${fit.size.toFixed(1)} pt instead of ${style.size} pt to fit.`,
      });
    }
    if (fit.missingGlyphs.length) {
      this.issues.push({
        block,
        kind: "missing_glyphs",
        message: `No bundled font can draw ${fit.missingGlyphs.slice(0, 8).join(" ")} in the ${label(block)}.`,
        chars: fit.missingGlyphs,
      });
    }
    if (opts.required && !text.trim())
      this.issues.push({ block, kind: "overflow", message: `The ${label(block)} is empty.` });
    return fit;
  }

  image(asset: ImageAsset, box: Box, align: "left" | "center" | "right" = "left") {
    const ratio = asset.widthPx / asset.heightPx;
    let w = box.w;
    let h = w / ratio;
    if (h > box.h) {
      h = box.h;
      w = h * ratio;
    }
    const x = align === "center" ? box.x + (box.w - w) / 2 : align === "right" ? box.x + box.w - w : box.x;
    this.add({ kind: "image", image: asset, x, y: box.y + (box.h - h) / 2, w, h });
    return { w, h };
  }

  qr(url: string, x: number, y: number, size: number) {
    this.add({ kind: "rect", x, y, w: size, h: size, fill: "#ffffff" });
    this.add({ kind: "path", d: qrPath(url, x, y, size), fill: "#000000" });
  }

  /** A zone that must stay free of artwork (shown in the preview only). */
  clearZone(box: Box, name: string) {
    this.guide({
      kind: "rect",
      x: box.x,
      y: box.y,
      w: box.w,
      h: box.h,
      fill: "#fab005",
      opacity: 0.12,
      stroke: "#f08c00",
      lineWidth: 0.75,
      dash: [3, 2],
    });
    void name;
  }

  /** "Specimen — not mailed" across the page, for the free audit plan. */
  specimen(style: Pick<TextStyle, "family">) {
    const size = Math.min(this.w, this.h) / 7;
    const diag = Math.hypot(this.w, this.h);
    const fit = layoutText(
      "Specimen — not mailed",
      { x: (this.w - diag) / 2, y: this.h / 2 - size * 0.7, w: diag, h: size * 1.4 },
      { family: style.family, weight: 700, size, color: "#c92a2a", align: "center", lineHeight: 1.2 },
    );
    const degrees = (-Math.atan2(this.h, this.w) * 180) / Math.PI;
    this.add({ kind: "text", runs: fit.runs, opacity: 0.28, rotate: { degrees, cx: this.w / 2, cy: this.h / 2 } });
    const band = layoutText(
      "Specimen — not mailed (free audit plan)",
      { x: 0, y: this.h - inch(0.28), w: this.w, h: inch(0.2) },
      { family: style.family, weight: 700, size: 7, color: "#c92a2a", align: "center" },
    );
    this.add({ kind: "text", runs: band.runs });
  }
}

function translatePath(d: string, b: number): string {
  // Our paths use absolute M commands followed by relative h/v/l/c; shift the absolute points only.
  return d.replace(
    /M(-?[\d.]+)[ ,](-?[\d.]+)/g,
    (_, x: string, y: string) =>
      `M${Math.round((Number(x) + b) * 1000) / 1000} ${Math.round((Number(y) + b) * 1000) / 1000}`,
  );
}

function label(block: RenderIssue["block"]): string {
  return {
    headline: "headline",
    body: "message",
    signOff: "sign-off",
    cta: "call to action",
    address: "address block",
    returnAddress: "return address",
    companyName: "company name",
  }[block];
}

/** A vector artwork filling a box, in the design's colours (relative path commands after one absolute move). */
export function artwork(kind: TArtwork, box: Box, colors: RenderInput["colors"]): SceneItem[] {
  const { x, y, w, h } = box;
  const f = (v: number) => Math.round(v * 100) / 100;
  const items: SceneItem[] = [{ kind: "rect", x, y, w, h, fill: colors.primary }];
  if (kind === "waves") {
    for (let i = 0; i < 5; i++) {
      const top = y + h * (0.35 + i * 0.14);
      const amp = h * 0.06;
      const seg = w / 4;
      let d = `M${f(x)} ${f(top)}`;
      for (let s = 0; s < 4; s++) d += `c${f(seg / 3)} ${f(-amp)} ${f((2 * seg) / 3)} ${f(amp)} ${f(seg)} 0`;
      d += `v${f(y + h - top)}h${f(-w)}z`;
      items.push({ kind: "path", d, fill: i % 2 ? colors.accent : "#ffffff", opacity: 0.16 + i * 0.05 });
    }
  } else if (kind === "dots") {
    const step = Math.min(w, h) / 9;
    for (let r = 0; r * step < h; r++)
      for (let c = 0; c * step < w; c++) {
        const rad = step * (0.12 + (0.22 * ((r + c) % 3)) / 2);
        const cx = x + c * step + step / 2;
        const cy = y + r * step + step / 2;
        items.push({
          kind: "path",
          d: `M${f(cx - rad)} ${f(cy)}a${f(rad)} ${f(rad)} 0 1 0 ${f(2 * rad)} 0a${f(rad)} ${f(rad)} 0 1 0 ${f(-2 * rad)} 0z`,
          fill: (r + c) % 4 === 0 ? colors.accent : "#ffffff",
          opacity: 0.35,
        });
      }
  } else if (kind === "stripes") {
    const step = w / 10;
    for (let i = -10; i < 10; i++) {
      const x0 = x + i * step;
      items.push({
        kind: "path",
        d: `M${f(Math.max(x, x0))} ${f(y + h)}l${f(Math.min(h, w))} ${f(-Math.min(h, w))}h${f(step / 2)}l${f(-Math.min(h, w))} ${f(Math.min(h, w))}z`,
        fill: i % 3 === 0 ? colors.accent : "#ffffff",
        opacity: 0.18,
      });
    }
  } else if (kind === "sunrise") {
    const cx = x + w / 2;
    const cy = y + h;
    for (let i = 5; i >= 1; i--) {
      const r = (Math.max(w, h) * i) / 5.5;
      items.push({
        kind: "path",
        d: `M${f(cx - r)} ${f(cy)}a${f(r)} ${f(r)} 0 0 1 ${f(2 * r)} 0z`,
        fill: i % 2 ? colors.accent : "#ffffff",
        opacity: 0.12 + (5 - i) * 0.06,
      });
    }
  }
  return [{ kind: "group", clip: box, items }];
}
