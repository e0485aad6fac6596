import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { addressBlock, fillTemplate, personalise, unknownMergeFields } from "./copy";
import { renderProof } from "./proof";

const ada = { firstName: "Ada", lastName: "Okafor", title: "VP Operations", company: "Brightline", addressLines: [] };

describe("copy", () => {
  it("fills merge fields and falls back where a value is missing", () => {
    expect(fillTemplate("Hi {{firstName}} at {{ company }}, {{fullName}}", ada)).toBe("Hi Ada at Brightline, Ada Okafor");
    expect(fillTemplate("Hi {{firstName}} at {{company}}", { ...ada, firstName: "", company: null })).toBe("Hi there at your team");
    expect(unknownMergeFields("{{firstName}} {{favouriteColour}}")).toEqual(["favouriteColour"]);
    expect(personalise({ headline: "{{firstName}}!", bodyTemplate: "Body", signOff: "— Sam" }, ada)).toEqual({ headline: "Ada!", body: "Body", signOff: "— Sam" });
  });

  it("lays out address blocks the way each country's post expects", () => {
    const c = { firstName: "Ada", lastName: "Okafor", title: "VP", company: "Brightline", addressLine1: "500 Boylston St", addressLine2: "Floor 3", city: "Boston", region: "MA", postalCode: "02116", country: "US" };
    expect(addressBlock(c)).toEqual(["Ada Okafor", "VP, Brightline", "500 Boylston St", "Floor 3", "Boston, MA 02116"]);
    expect(addressBlock({ ...c, country: "GB", city: "London", region: null, postalCode: "E14 5AB" }).slice(-3)).toEqual(["London", "E14 5AB", "GB"]);
    expect(addressBlock({ ...c, country: "DE", city: "Berlin", region: null, postalCode: "10117" }).slice(-2)).toEqual(["10117 Berlin", "DE"]);
  });
});

describe("renderProof", () => {
  it("makes a print-ready PDF per format: postcards have two 9x6 in sides, letters one US Letter page", async () => {
    const input = {
      copy: { headline: "Ada, thanks for trying us", body: "A long body ".repeat(40), signOff: "Sam" },
      addressLines: ["Ada Okafor", "500 Boylston St", "Boston, MA 02116"],
      returnAddress: "Acme, 415 Mission St, San Francisco, CA 94105",
      accentColor: "#1c7ed6",
      responseUrl: "https://mail.example.com/r/Ab3dE9xYz1?via=qr",
      responseLabel: "mail.example.com/r/Ab3dE9xYz1",
      pieceId: "pc_1",
    };
    const postcard = await PDFDocument.load(await renderProof({ ...input, format: "postcard" }));
    expect(postcard.getPageCount()).toBe(2);
    expect(postcard.getPage(0).getSize()).toEqual({ width: 648, height: 432 });
    const letter = await PDFDocument.load(await renderProof({ ...input, format: "letter" }));
    expect(letter.getPageCount()).toBe(1);
    expect(letter.getPage(0).getSize()).toEqual({ width: 612, height: 792 });
    for (const format of ["handwritten", "gift"] as const) {
      expect((await PDFDocument.load(await renderProof({ ...input, format }))).getPageCount()).toBe(1);
    }
  });

  it("draws characters the standard fonts lack as something printable instead of failing", async () => {
    const bytes = await renderProof({
      format: "letter",
      copy: { headline: "Zoë — “quotes” and 漢字", body: "Łódź", signOff: "" },
      addressLines: ["Zoë Łukasz"],
      returnAddress: "",
      accentColor: "nonsense",
      responseUrl: "https://x.test/r/1",
      responseLabel: "x.test/r/1",
      pieceId: "pc_2",
    });
    expect(bytes.byteLength).toBeGreaterThan(1000);
  });
});
