import { describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import PNG from "png-js";
import { hasPoppler, pdfBoxes, pdfPagePng, pdfText } from "@/test/pdf-tools";
import { layoutPiece, piecePdf, piecePng } from "./index";
import type { RenderInput } from "./input";
import { sampleRenderInput } from "@/test/render-input";
import type { SceneItem } from "./scene";

const postcard: RenderInput = sampleRenderInput({
  title: "Vendor address",
  text: {
    headline: "Dana, a note",
    body: "Hi Dana, a short note from the team.",
    signOff: "Sam",
    cta: "Scan to book a call",
  },
  recipient: {
    name: "Dana Whitaker",
    addressLines: ["Dana Whitaker", "Ironbridge Capital", "233 S Wacker Dr Floor 4", "Chicago, IL 60606"],
  },
});

const texts = (items: SceneItem[] | undefined) =>
  (items ?? []).flatMap((i) => (i.kind === "text" ? i.runs.map((r) => r.text) : [])).join(" ");

describe("a vendor that prints the address block itself (Lob)", () => {
  it("leaves a postcard's address area blank in the print file and shows the address there in the preview, marked as the vendor's", async () => {
    const ours = layoutPiece(postcard);
    const lob = layoutPiece({ ...postcard, addressPrintedBy: "Lob" });
    const [oursBack, lobBack] = [ours.scene.pages[1], lob.scene.pages[1]];
    expect(texts(oursBack.items)).toContain("233 S Wacker Dr");
    expect(texts(lobBack.items)).not.toContain("233 S Wacker Dr");
    expect(texts(lobBack.items)).not.toContain("Dana Whitaker");
    expect(texts(lobBack.vendor)).toContain("233 S Wacker Dr");
    expect(texts(lobBack.vendor)).toContain("Lob prints this address block");
    // Everything else of the back is the same piece.
    expect(texts(lobBack.items)).toBe(
      texts(oursBack.items).replace(/ ?Dana Whitaker Ironbridge Capital 233 S Wacker Dr Floor 4 Chicago, IL 60606/, ""),
    );
    // The preview draws the vendor's block: it differs from a preview without it.
    const withMark = piecePng(lob, 1, { widthPx: 300 });
    const plain = piecePng(
      { ...lob, scene: { ...lob.scene, pages: lob.scene.pages.map((p) => ({ ...p, vendor: [] })) } },
      1,
      { widthPx: 300 },
    );
    expect(withMark.equals(plain)).toBe(false);
    if (hasPoppler) {
      const printed = pdfText(await piecePdf(lob));
      expect(printed).not.toContain("Wacker");
      expect(printed).not.toContain("Lob prints");
      expect(printed).toContain("Hi Dana");
      expect(pdfText(await piecePdf(ours))).toContain("Wacker");
    }
  });

  it("leaves both window addresses of a letter to the vendor", async () => {
    const letter = layoutPiece({
      ...postcard,
      format: "letter",
      size: "us_letter",
      layout: "classic",
      addressPrintedBy: "Lob",
    });
    const first = letter.scene.pages[0];
    expect(texts(first.items)).not.toContain("Wacker");
    expect(texts(first.items)).not.toContain("415 Mission St");
    expect(texts(first.vendor)).toContain("Wacker");
    expect(texts(first.vendor)).toContain("415 Mission St");
  });

  it("prints a letter on 8.5 × 11 in exactly, with no bleed, and leaves Lob's white address box of its letter template empty", async () => {
    const rendered = layoutPiece({
      ...postcard,
      format: "letter",
      size: "us_letter",
      layout: "modern",
      image: "waves",
      addressPrintedBy: "Lob",
    });
    const page = rendered.scene.pages[0];
    expect(page).toMatchObject({ width: 612, height: 792, bleed: 0 });
    const pdf = await piecePdf(rendered);
    if (!hasPoppler) return;
    // Every box of every page is the sheet Lob asks for: 612 × 792 pt.
    const boxes = pdfBoxes(pdf);
    expect(boxes.length).toBeGreaterThan(0);
    for (const b of boxes) expect(b.rect).toEqual([0, 0, 612, 792]);
    // Lob prints its white address box at 0.6 in, 0.84 in (3.15 × 2 in): the print file leaves it white.
    const png = pdfPagePng(pdf, 1, 20);
    if (process.env.KEEP_LETTER_PNG) {
      mkdirSync(process.env.KEEP_LETTER_PNG, { recursive: true });
      writeFileSync(`${process.env.KEEP_LETTER_PNG}/letter-lob.png`, png);
    }
    const img = new PNG(png);
    const data = await new Promise<Uint8Array>((resolve) => img.decode(resolve));
    expect([img.width, img.height]).toEqual([170, 220]);
    const px = (xIn: number, yIn: number) => {
      const i = (Math.round(yIn * 20) * img.width + Math.round(xIn * 20)) * 4;
      return [data[i], data[i + 1], data[i + 2]];
    };
    for (const [x, y] of [
      [0.7, 0.9],
      [2, 1.5],
      [3.6, 2.75],
      [1, 2.2],
    ])
      expect(px(x, y)).toEqual([255, 255, 255]);
    // The modern band of colour starts at the sheet's edge, not in a bleed.
    expect(px(0.05, 5)).not.toEqual([255, 255, 255]);
    expect(pdfText(pdf)).not.toContain("Wacker");
  });
});
