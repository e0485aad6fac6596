import PNG from "png-js";
import { describe, expect, it } from "vitest";
import { hasPoppler, pdfFonts, pdfPagePng, pdfText } from "@/test/pdf-tools";
import { layoutPiece, piecePdf, piecePng } from "./index";
import type { RenderInput } from "./input";
import { sampleRenderInput } from "@/test/render-input";

/** Every script a recipient's name and address may be written in, printed as text a reader can find. */

const base: RenderInput = sampleRenderInput({ title: "Scripts" });

const piece = (name: string, addressLines: string[], country: string, headline = `${name}, a quick idea`) =>
  layoutPiece({
    ...base,
    text: { ...base.text, headline },
    recipient: { name, addressLines: [name, ...addressLines], country },
  });

/** pdftotext marks right-to-left lines with bidi embedding controls (U+202A-U+202E); the words between them are what a reader copies. */
const readable = (text: string) => text.replace(/[\u200e\u200f\u202a-\u202e]/g, "");

/**
 * `extracted`: the address lines as pdftotext gives them. It returns right-to-left words in reading
 * order, but puts a number that ends a right-to-left line (drawn at its left end) first.
 */
const RECIPIENTS = [
  {
    script: "Arabic",
    name: "محمد بن سلمان الشهري",
    address: ["شارع الملك فهد 12", "الرياض 12345"],
    extracted: ["12 شارع الملك فهد", "12345 الرياض"],
    country: "SA",
    font: "NotoSansArabic",
  },
  {
    script: "Hebrew",
    name: "דוד כהן",
    address: ["רחוב הרצל 15", "תל אביב 6100000"],
    extracted: ["15 רחוב הרצל", "6100000 תל אביב"],
    country: "IL",
    font: "NotoSansHebrew",
  },
  {
    script: "Korean",
    name: "김민준",
    address: ["서울특별시 강남구 테헤란로 152", "06236"],
    country: "KR",
    font: "NotoSansKR",
  },
  {
    script: "Thai",
    name: "สมชาย ใจดี",
    address: ["99 ถนนสุขุมวิท", "กรุงเทพมหานคร 10110"],
    country: "TH",
    font: "NotoSansThai",
  },
  {
    script: "Japanese",
    name: "山田 直樹",
    address: ["東京都千代田区丸の内1-1-1", "100-0005"],
    country: "JP",
    font: "NotoSansJP",
  },
] as const;

describe("every script prints", () => {
  it.skipIf(!hasPoppler).each(RECIPIENTS)(
    "prints a recipient named in $script as text, in reading order, with its own font and no missing glyph",
    async (r) => {
      const { name, address, country, font } = r;
      const rendered = piece(name, [...address], country);
      expect(rendered.issues.filter((i) => i.kind === "missing_glyphs")).toEqual([]);
      const pdf = await piecePdf(rendered);
      const text = readable(pdfText(pdf));
      for (const line of [name, ...("extracted" in r ? r.extracted : address)]) expect(text).toContain(line);
      const fonts = pdfFonts(pdf);
      expect(fonts.map((f) => f.name.split("+")[1])).toContainEqual(expect.stringContaining(font));
      for (const f of fonts) expect([f.emb, f.sub, f.uni]).toEqual(["yes", "yes", "yes"]);
      // Subsets: a few glyphs of each script, not the fonts (Noto Sans KR and JP are several MB each).
      expect(pdf.length).toBeLessThan(150 * 1024);
    },
  );

  it("orders a right-to-left line from right to left, keeping numbers and Latin words left to right", () => {
    const rendered = piece("דוד כהן", ["רחוב הרצל 15"], "IL", "שלום דוד, 2024 ב-Tel Aviv");
    const headline = rendered.scene.pages[0].items.find(
      (i) => i.kind === "text" && i.runs.some((r) => r.text.includes("שלום")),
    );
    if (headline?.kind !== "text") throw new Error("no headline");
    // Left to right on the page: the Latin words, the number, then the Hebrew words in reverse reading order.
    const runs = [...headline.runs]
      .sort((a, b) => a.x - b.x)
      .map((r) => r.text.trim())
      .filter(Boolean);
    expect(runs.join(" | ")).toBe("Tel Aviv | - | ב | 2024 | , | דוד | שלום");
  });

  it("starts a right-to-left paragraph at the right of its box, and keeps the address block's left edge", () => {
    const rendered = layoutPiece({
      ...base,
      text: { ...base.text, body: "Hello Sa'id,\n\nمرحبا سعيد" },
      recipient: { name: "سعيد", addressLines: ["سعيد", "شارع السلام 4", "SAUDI ARABIA"], country: "SA" },
    });
    const runs = rendered.scene.pages[1].items.flatMap((i) => (i.kind === "text" ? i.runs : []));
    const line = (pred: (t: string) => boolean) => {
      const y = runs.find((r) => pred(r.text))!.y;
      const on = runs.filter((r) => r.y === y);
      return { left: Math.min(...on.map((r) => r.x)), right: Math.max(...on.map((r) => r.x + r.width)) };
    };
    const latin = line((t) => t.startsWith("Hello"));
    const arabic = line((t) => t.includes("مرحبا"));
    expect(arabic.left).toBeGreaterThan(latin.left + 50);
    expect(arabic.right).toBeGreaterThan(latin.right);
    expect(line((t) => t.includes("شارع")).left).toBeCloseTo(line((t) => t.includes("SAUDI")).left, 3);
  });

  it("joins Arabic letters (initial, medial and final forms) and stacks Thai marks", () => {
    const runs = piece("محمد", [], "SA").scene.pages[1].items.flatMap((i) => (i.kind === "text" ? i.runs : []));
    const arabic = runs.find((r) => r.text === "محمد")!;
    // Four letters, four glyphs, none of them the isolated forms the characters map to.
    const isolated = [..."محمد"].map((c) => arabic.font.font.glyphForCodePoint(c.codePointAt(0)!).id);
    expect(arabic.glyphs).toHaveLength(4);
    expect(arabic.glyphs.filter((g) => isolated.includes(g.id))).toEqual([]);
    const thai = piece("กิ่ง", [], "TH")
      .scene.pages[1].items.flatMap((i) => (i.kind === "text" ? i.runs : []))
      .find((r) => r.text === "กิ่ง")!;
    // The vowel and the tone mark sit over the first consonant: the same x, stacked at different heights.
    expect(thai.glyphs[1].x).toBeCloseTo(thai.glyphs[2].x, 0);
    expect(thai.glyphs[2].y).not.toBeCloseTo(thai.glyphs[1].y, 1);
  });

  it.skipIf(!hasPoppler)(
    "extracts letters that share one glyph outline as themselves (س and ش in one piece)",
    async () => {
      const pdf = await piecePdf(piece("سعيد الشمري", ["شارع السلام 4", "جدة"], "SA"));
      const text = readable(pdfText(pdf));
      for (const s of ["سعيد الشمري", "4 شارع السلام", "جدة"]) expect(text).toContain(s);
    },
  );

  it.skipIf(!hasPoppler)(
    "mirrors brackets in right-to-left text on the page, and extracts them as written",
    async () => {
      const rendered = piece("דוד כהן (מנהל)", ["רחוב הרצל 15"], "IL");
      const name = rendered.scene.pages[1].items
        .flatMap((i) => (i.kind === "text" ? i.runs : []))
        .filter(
          (r) =>
            r.rtl &&
            r.y ===
              Math.min(
                ...rendered.scene.pages[1].items
                  .flatMap((i) => (i.kind === "text" ? i.runs : []))
                  .filter((x) => x.rtl)
                  .map((x) => x.y),
              ),
        );
      // Left to right on the page: the last word in its brackets (each bracket mirrored: the closing one is drawn as "("), then the first two.
      expect(name.sort((a, b) => a.x - b.x).map((r) => r.text)).toEqual(["(", "מנהל", ")", " ", "כהן", " ", "דוד"]);
      // pdftotext reads the brackets as written (it puts the closing one, drawn at the line's left end, first).
      const text = readable(pdfText(await piecePdf(rendered)));
      expect(text).toContain("דוד כהן (מנהל");
      expect(text).not.toContain(")מנהל");
    },
  );

  it.skipIf(!hasPoppler)(
    "draws Han characters with Japanese forms for a recipient in Japan or a name with kana, and Chinese forms otherwise",
    async () => {
      const fontsOf = async (r: ReturnType<typeof piece>) =>
        pdfFonts(await piecePdf(r)).map((f) => f.name.split("+")[1]);
      const japan = await fontsOf(piece("山田 直樹", ["東京都千代田区丸の内1-1-1"], "JP"));
      expect(japan.filter((f) => f.startsWith("NotoSansSC"))).toEqual([]);
      expect(japan).toContainEqual(expect.stringMatching(/^NotoSansJP/));
      const kana = await fontsOf(piece("やまだ 直樹", [], "US"));
      expect(kana.filter((f) => f.startsWith("NotoSansSC"))).toEqual([]);
      const china = await fontsOf(piece("王芳", ["北京市朝阳区建国路88号"], "CN"));
      expect(china.filter((f) => f.startsWith("NotoSansJP"))).toEqual([]);
      expect(china).toContainEqual(expect.stringMatching(/^NotoSansSC/));
    },
  );

  it.each([
    ["Tifinagh", "ⵜⴰⵎⴰⵣⵉⵖⵜ"],
    ["Cherokee", "ᏣᎳᎩ"],
  ])(
    "reports a name in %s, which no bundled font covers, as missing glyphs in the address with its characters",
    (_script, name) => {
      const rendered = piece(name, ["12 Rue Hassan II", "Rabat 10000"], "MA", "A quick idea");
      const chars = [...new Set(name)];
      expect(rendered.issues).toContainEqual({
        block: "address",
        kind: "missing_glyphs",
        message: `No bundled font can draw ${chars.join(" ")} in the address block.`,
        chars,
      });
    },
  );

  it.skipIf(!hasPoppler)(
    "the preview of a right-to-left piece is the page poppler rasterises from its PDF",
    async () => {
      const decode = (png: Buffer) =>
        new Promise<Uint8Array>((resolve) => {
          const p = new PNG(png);
          p.decode((px) => resolve(px));
        });
      const rendered = piece(
        "محمد بن سلمان الشهري",
        ["شارع الملك فهد 12", "الرياض 12345"],
        "SA",
        "שלום דוד, 2024 ב-Tel Aviv",
      );
      const pdf = await piecePdf(rendered);
      for (const page of [0, 1]) {
        const ours = await decode(piecePng(rendered, page, { widthPx: 666 }));
        const theirs = await decode(pdfPagePng(pdf, page + 1, 72));
        let diff = 0;
        for (let i = 0; i < ours.length; i += 4)
          diff +=
            Math.abs(ours[i] - theirs[i]) +
            Math.abs(ours[i + 1] - theirs[i + 1]) +
            Math.abs(ours[i + 2] - theirs[i + 2]);
        expect(diff / ((ours.length / 4) * 3), `page ${page + 1}`).toBeLessThan(3);
      }
    },
  );
});
