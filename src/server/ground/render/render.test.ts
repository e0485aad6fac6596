import { readFileSync, writeFileSync, existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import PNG from "png-js";
import { describe, expect, it } from "vitest";
import { hasPoppler, pdfBoxes, pdfFonts, pdfPagePng, pdfText } from "@/test/pdf-tools";
import { layoutPiece, LAYOUTS, piecePdf, piecePng } from "./index";
import type { RenderInput } from "./input";
import { sampleRenderInput } from "@/test/render-input";
import { FORMATS, postcardBackZones, SIZES } from "./page-specs";
import { inch, type SceneItem } from "./scene";

const base: RenderInput = sampleRenderInput({
  title: "Golden",
  text: {
    headline: "Łukasz, a quick idea for Brightline",
    body: "Hi Łukasz,\n\nWe met Đặng Văn Minh and 王芳 at the Hanoi meetup — Привет from the team in Kyiv too.\n\nBest,",
    signOff: "Sam at Acme",
    cta: "Scan to see your plan",
  },
  recipient: {
    name: "Łukasz Wiśniewski",
    addressLines: ["Łukasz Wiśniewski", "VP Operations, Brightline", "500 Boylston St", "Boston, MA 02116"],
  },
});

const GOLDEN = path.join(import.meta.dirname, "__golden__");
/** Compares with the stored golden file; UPDATE_GOLDEN=1 rewrites it after a deliberate change. */
function golden(name: string, actual: string) {
  const file = path.join(GOLDEN, name);
  // A missing golden file is written on a developer's machine, never in CI (a deleted golden must fail there).
  if (process.env.UPDATE_GOLDEN || (!existsSync(file) && !process.env.CI)) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, actual);
  }
  expect(actual).toBe(readFileSync(file, "utf8"));
}

const decode = (png: Buffer) =>
  new Promise<{ w: number; h: number; px: Uint8Array }>((resolve) => {
    const p = new PNG(png);
    p.decode((px) => resolve({ w: p.width, h: p.height, px }));
  });

/** The box an item covers, in points from the page's top left (bleed included). */
function boxOf(item: SceneItem): { x: number; y: number; w: number; h: number } {
  switch (item.kind) {
    case "rect":
    case "image":
      return { x: item.x, y: item.y, w: item.w, h: item.h };
    case "line":
      return {
        x: Math.min(item.x1, item.x2),
        y: Math.min(item.y1, item.y2),
        w: Math.abs(item.x2 - item.x1),
        h: Math.abs(item.y2 - item.y1),
      };
    case "group":
      return item.clip;
    case "path": {
      // The address side's only path is the QR code: runs of modules, "M x y h w v h h -w z" each.
      const runs = [...item.d.matchAll(/M(-?[\d.]+) (-?[\d.]+)h(-?[\d.]+)v(-?[\d.]+)/g)].map((m) =>
        m.slice(1).map(Number),
      );
      const x0 = Math.min(...runs.map(([x]) => x));
      const y0 = Math.min(...runs.map(([, y]) => y));
      return {
        x: x0,
        y: y0,
        w: Math.max(...runs.map(([x, , w]) => x + w)) - x0,
        h: Math.max(...runs.map(([, y, , v]) => y + v)) - y0,
      };
    }
    case "text": {
      const x0 = Math.min(...item.runs.map((r) => r.x));
      const x1 = Math.max(...item.runs.map((r) => r.x + r.width));
      const y0 = Math.min(...item.runs.map((r) => r.y - r.size * 0.8));
      const y1 = Math.max(...item.runs.map((r) => r.y + r.size * 0.2));
      return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
    }
  }
}
const overlaps = (
  a: { x: number; y: number; w: number; h: number },
  b: { x: number; y: number; w: number; h: number },
) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

describe("the renderer", () => {
  it.each(["4x6", "6x9", "6x11"] as const)(
    "keeps a %s postcard's postage area, address block and barcode clear zone free of everything but the address",
    (size) => {
      for (const layout of Object.keys(LAYOUTS.postcard)) {
        const back = layoutPiece({
          ...base,
          size,
          layout,
          text: { ...base.text, cta: "Scan to see the plan we wrote for your whole team this quarter" },
        }).scene.pages[1];
        const zones = postcardBackZones(size);
        const zone = (z: { x: number; y: number; w: number; h: number }) => ({
          x: inch(z.x) + back.bleed,
          y: inch(z.y) + back.bleed,
          w: inch(z.w),
          h: inch(z.h),
        });
        const address = (item: SceneItem) =>
          item.kind === "text" &&
          item.runs
            .map((r) => r.text)
            .join(" ")
            .includes("Boylston");
        for (const item of back.items) {
          const box = boxOf(item);
          if (box.w >= back.width - 1 || box.x + box.w <= inch(0.3) + back.bleed) continue; // the paper's background, the colour bar at the left edge
          const where = `${size} ${layout}: ${item.kind} at ${JSON.stringify(box)}`;
          expect(overlaps(box, zone(zones.postage)), `postage area, ${where}`).toBe(false);
          expect(overlaps(box, zone(zones.barcode)), `barcode clear zone, ${where}`).toBe(false);
          if (!address(item)) expect(overlaps(box, zone(zones.address)), `address block, ${where}`).toBe(false);
        }
      }
    },
  );

  it.skipIf(!hasPoppler)(
    "writes a 6x9 postcard at its exact size with 0.125 in bleed, fonts embedded and subsetted, and every name as extractable text",
    async () => {
      const pdf = await piecePdf(layoutPiece(base));
      const boxes = pdfBoxes(pdf);
      expect(boxes.filter((b) => b.box === "MediaBox").map((b) => b.rect)).toEqual([
        [0, 0, 666, 450],
        [0, 0, 666, 450],
      ]);
      expect(boxes.filter((b) => b.box === "TrimBox").map((b) => b.rect)).toEqual([
        [9, 9, 657, 441],
        [9, 9, 657, 441],
      ]);
      const fonts = pdfFonts(pdf);
      expect(fonts.length).toBeGreaterThan(2);
      for (const f of fonts) expect([f.emb, f.sub, f.uni]).toEqual(["yes", "yes", "yes"]);
      expect(fonts.map((f) => f.name.split("+")[1])).toEqual(
        expect.arrayContaining(["NotoSans-Bold", "NotoSans-Regular", "Caveat-Regular", "NotoSansSC-Regular"]),
      );
      const text = pdfText(pdf);
      for (const s of [
        "Łukasz, a quick idea for",
        "Đặng Văn Minh",
        "王芳",
        "Привет",
        "Łukasz Wiśniewski",
        "Sam at Acme",
        "mail.example/r/Ab3dE9xYz1",
      ])
        expect(text).toContain(s);
      golden("postcard-6x9-bold.txt", text);
      expect(pdf.length).toBeLessThan(500 * 1024);
    },
  );

  it.skipIf(!hasPoppler)("lays out every size and layout of every format at its exact page size", async () => {
    for (const format of FORMATS) {
      for (const [size, spec] of Object.entries(SIZES[format])) {
        for (const layout of Object.keys(LAYOUTS[format])) {
          const rendered = layoutPiece({
            ...base,
            format,
            size,
            layout,
            gift: format === "gift" ? { name: "Coffee sampler", description: "" } : null,
          });
          const pdf = await piecePdf(rendered);
          const media = pdfBoxes(pdf).filter((b) => b.box === "MediaBox");
          expect(media.length, `${format} ${size} ${layout}`).toBe(
            format === "postcard" || format === "handwritten" ? 2 : 1,
          );
          // The piece (the first page) is the trim size plus 9 pt of bleed on each side; a letter is its trim exactly.
          const bleed = format === "letter" ? 0 : 18;
          expect(media[0].rect[2]).toBeCloseTo(spec.w + bleed, 1);
          expect(media[0].rect[3]).toBeCloseTo(spec.h + bleed, 1);
          expect(pdfText(pdf)).toContain("Łukasz");
          expect(
            rendered.issues.filter((i) => i.kind === "overflow"),
            `${format} ${size} ${layout}`,
          ).toEqual([]);
        }
      }
    }
  });

  it("shrinks a long headline within its limits, and reports one that cannot fit instead of cutting it silently", () => {
    const longer = layoutPiece({
      ...base,
      text: {
        ...base.text,
        headline:
          "Łukasz, a rather longer idea for the whole Brightline Logistics operations team in Boston and for everyone in the Seattle office too",
      },
    });
    expect(longer.issues).toEqual([expect.objectContaining({ block: "headline", kind: "shrunk" })]);
    const name =
      "Wolfeschlegelsteinhausenbergerdorffwelchevoralternwarengewissenhaftschaferswessenschafewarenwohlgepflegeundsorgfaltigkeitbeschutzenvonangreifendurchihrraubgierigfeinde";
    const overflow = layoutPiece({
      ...base,
      text: { ...base.text, headline: `${name}, ${name}, ${name}, a quick idea` },
    });
    expect(overflow.issues).toContainEqual({
      block: "headline",
      kind: "overflow",
      message: expect.stringMatching(/^The headline does not fit its box even at \d+\.\d pt: shorten it\.$/),
    });
    // The preview marks the box that overflows; the print file has no such mark.
    expect(overflow.scene.pages[0].guides.some((g) => g.kind === "rect" && g.stroke === "#e03131")).toBe(true);
    expect(overflow.scene.pages[0].items.some((g) => g.kind === "rect" && g.stroke === "#e03131")).toBe(false);
  });

  it.skipIf(!hasPoppler)(
    "marks every page of a specimen (free audit plan) and none of a paid plan's print file",
    async () => {
      const specimen = pdfText(await piecePdf(layoutPiece({ ...base, specimen: true })));
      // The band along the bottom of each page (the large diagonal mark is extracted letter by letter).
      expect(specimen.match(/Specimen — not mailed \(free audit plan\)/g)?.length).toBe(2);
      expect(pdfText(await piecePdf(layoutPiece(base)))).not.toMatch(/specimen/i);
    },
  );

  it.skipIf(!hasPoppler)(
    "the preview PNG and the print PDF rasterised by another reader show the same page",
    async () => {
      const rendered = layoutPiece(base);
      const pdf = await piecePdf(rendered);
      for (const page of [0, 1]) {
        const ours = await decode(piecePng(rendered, page, { widthPx: 666 }));
        const theirs = await decode(pdfPagePng(pdf, page + 1, 72));
        expect([ours.w, ours.h]).toEqual([theirs.w, theirs.h]);
        let diff = 0;
        for (let i = 0; i < ours.px.length; i += 4)
          diff +=
            Math.abs(ours.px[i] - theirs.px[i]) +
            Math.abs(ours.px[i + 1] - theirs.px[i + 1]) +
            Math.abs(ours.px[i + 2] - theirs.px[i + 2]);
        const meanPerChannel = diff / ((ours.px.length / 4) * 3);
        // Anti-aliasing differs between resvg and poppler by a few levels at edges; a moved line or a missing glyph costs far more.
        expect(meanPerChannel, `page ${page + 1}`).toBeLessThan(3);
      }
      // The same check notices when the preview is not what is printed.
      const moved = layoutPiece({ ...base, text: { ...base.text, body: base.text.body.replace("Hi", "Hello") } });
      const other = await decode(piecePng(moved, 1, { widthPx: 666 }));
      const printed = await decode(pdfPagePng(pdf, 2, 72));
      let d = 0;
      for (let i = 0; i < other.px.length; i += 4) d += Math.abs(other.px[i] - printed.px[i]);
      expect(d / (other.px.length / 4)).toBeGreaterThan(0.2);
    },
  );

  it("reports characters that no bundled font can draw, naming them", () => {
    const r = layoutPiece({ ...base, text: { ...base.text, headline: "Hello ⵜⴰⵎⴰⵣⵉⵖⵜ" } });
    expect(r.issues).toContainEqual({
      block: "headline",
      kind: "missing_glyphs",
      message: "No bundled font can draw ⵜ ⴰ ⵎ ⵣ ⵉ ⵖ in the headline.",
      chars: ["ⵜ", "ⴰ", "ⵎ", "ⵣ", "ⵉ", "ⵖ"],
    });
  });
});
