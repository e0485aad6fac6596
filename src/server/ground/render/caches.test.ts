import PDFDocument from "pdfkit";
import { describe, expect, it } from "vitest";
import { makePng } from "@/test/images";
import { sampleRenderInput } from "@/test/render-input";
import { imageAsset, pdfImageData } from "./images";
import { layoutPiece, piecePdf, piecePng, piecePngAsync } from "./index";
import { Lru } from "./lru";
import { addPath } from "./pdf-paths";
import { decodePngForPdf } from "./png-decode";
import { qrPath } from "./qr";

/** The renderer's caches change how fast a piece is made, never what it is. */
describe("renderer caches", () => {
  it("writes the same PDF for a piece whether its fonts, layout and paths come from the caches or not", async () => {
    const logo = imageAsset(makePng(320, 120), "image/png")!;
    const piece = (name: string) =>
      layoutPiece(
        sampleRenderInput({
          logo,
          text: { ...sampleRenderInput().text, headline: `${name}, a quick idea` },
          recipient: { name, addressLines: [name, "1 Main St", "Boston, MA 02116"] },
        }),
      );
    const first = await piecePdf(piece("Zoë Quigley"));
    await piecePdf(piece("Đặng Văn Minh"));
    expect(Buffer.compare(await piecePdf(piece("Zoë Quigley")), first)).toBe(0);
  });

  it("decodes a PNG for the PDF in the image thread, once for documents asking at the same time, as a direct decode would", async () => {
    const asset = imageAsset(makePng(211, 97), "image/png")!;
    const [a, b] = await Promise.all([pdfImageData(asset), pdfImageData(asset)]);
    expect(a).toBe(b);
    const direct = await decodePngForPdf(asset.bytes);
    expect({ ...a, data: Buffer.from(a.data), alpha: a.alpha && Buffer.from(a.alpha) }).toEqual({
      ...direct,
      data: Buffer.from(direct.data),
      alpha: direct.alpha && Buffer.from(direct.alpha),
    });
  });

  it("rasterises a preview on the thread pool to the same PNG as on the calling thread", async () => {
    const rendered = layoutPiece(sampleRenderInput({ logo: imageAsset(makePng(300, 100), "image/png")! }));
    expect(
      Buffer.compare(await piecePngAsync(rendered, 0, { widthPx: 300 }), piecePng(rendered, 0, { widthPx: 300 })),
    ).toBe(0);
  });

  it("writes a QR code's path with the operators PDFKit's own path parser writes", () => {
    const record = (draw: (doc: PDFKit.PDFDocument) => void) => {
      const doc = new PDFDocument({ autoFirstPage: false });
      const ops: string[] = [];
      doc.addContent = (s: string) => {
        ops.push(s);
        return doc;
      };
      draw(doc);
      return ops.join("\n");
    };
    for (const url of ["https://mail.example/r/Ab3dE9xYz1?via=qr", "https://x.example/r/Q?via=qr"]) {
      const d = qrPath(url, 37.125, 301.5, 61.2);
      expect(record((doc) => addPath(doc as never, d))).toBe(record((doc) => doc.path(d)));
    }
  });

  it("keeps a cache within its entries and bytes, dropping the least recently used", () => {
    const lru = new Lru<string, string>(3, (v) => v.length, 10);
    lru.set("a", "1111");
    lru.set("b", "2222");
    lru.get("a");
    lru.set("c", "33");
    expect([lru.get("a"), lru.get("b"), lru.get("c")]).toEqual(["1111", "2222", "33"]);
    // Used last in the order a, b, c: "a" is the least recently used now.
    lru.set("d", "4444");
    expect(lru.get("a")).toBeUndefined();
    expect(lru.get("b")).toBe("2222");
    expect(lru.totalBytes).toBeLessThanOrEqual(10);
    lru.set("e", "x".repeat(11));
    expect(lru.get("e")).toBeUndefined();
    lru.set("f", "5");
    expect(lru.size).toBeLessThanOrEqual(3);
  });
});
