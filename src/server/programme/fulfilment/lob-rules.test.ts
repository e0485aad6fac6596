import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PDFDocument } from "pdf-lib";
import { layoutPiece, piecePdf } from "@/server/ground/render/index";
import { type FakeLob, startFakeLob } from "@/test/fake-lob";
import { sampleRenderInput } from "@/test/render-input";
import { VendorError } from "./adapter";
import { explainLobError, LobPrintVendor } from "./vendors/lob";
import { LobHttp, lobForm } from "./vendors/lob-http";

let lob: FakeLob;
beforeAll(async () => {
  lob = await startFakeLob();
});
afterAll(() => lob.close());

const to = {
  name: "Dana Whitaker",
  address_line1: "233 S Wacker Dr",
  address_line2: "Floor 4",
  address_city: "Chicago",
  address_state: "IL",
  address_zip: "60606",
  address_country: "US",
};
const from = { ...to, name: "Acme", address_line1: "185 Berry St", address_line2: "", address_zip: "94107" };

async function sheetPdf(wIn: number, hIn: number, pages = 1) {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([wIn * 72, hIn * 72]);
  return doc.save();
}
const pdf = (bytes: Uint8Array) => ({ file: bytes, filename: "letter.pdf", contentType: "application/pdf" });

/** Lob's error for a request, or null when it was taken. */
async function lobAnswer(path: string, fields: Record<string, unknown>) {
  try {
    await new LobHttp(lob.url, lob.apiKey).request("POST", path, { form: lobForm(fields) });
    return null;
  } catch (e) {
    return (e as { response: { status: number; data: { error: { code: string; message: string } } } }).response;
  }
}
const letter = (over: Record<string, unknown> = {}) => ({
  to,
  from,
  use_type: "marketing",
  color: true,
  ...over,
});

describe("the Lob fake refuses what Lob refuses", { timeout: 60_000 }, () => {
  it("measures a letter's file: 8.5 × 11 in exactly on every page (a file with bleed is refused), at most 60 pages", async () => {
    const created = lob.print.created.length;
    expect(await lobAnswer("/letters", letter({ file: pdf(await sheetPdf(8.75, 11.25)) }))).toMatchObject({
      status: 422,
      data: {
        error: {
          code: "invalid_file_dimensions",
          message: "page 1 of file is 8.750x11.250 in; it must be 8.50x11.00 in",
        },
      },
    });
    expect(await lobAnswer("/letters", letter({ file: pdf(await sheetPdf(8.5, 11, 61)) }))).toMatchObject({
      status: 422,
      data: { error: { code: "file_pages_exceed_max" } },
    });
    expect(lob.print.created.length).toBe(created);
    expect(await lobAnswer("/letters", letter({ file: pdf(await sheetPdf(8.5, 11, 2)) }))).toBeNull();
    expect(lob.print.created.length).toBe(created + 1);
  });

  it("takes a file URL only in Lob's pattern (https, ending in .pdf, no query): a signed URL with a query is refused", async () => {
    for (const url of [
      "http://127.0.0.1:3000/api/print-files/pce_1/file?expires=1&signature=ab",
      "https://example.test/api/print-files/pce_1/file?expires=1&signature=ab",
      "https://example.test/letter.pdf?v=1",
    ])
      expect(await lobAnswer("/letters", letter({ file: url })), url).toMatchObject({
        status: 422,
        data: { error: { code: "invalid_file_url" } },
      });
  });

  it("checks US addresses as Lob's address model does: state, ZIP, 40-character names, line 1 + line 2 at most 50", async () => {
    const file = pdf(await sheetPdf(8.5, 11));
    const created = lob.print.created.length;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...to, address_state: "Illinois" }, "invalid", "to.address_state must be a 2 letter state short-name code"],
      [
        { ...to, address_zip: "6060" },
        "invalid",
        "to.address_zip must follow the ZIP format of 12345 or ZIP+4 format of 12345-1234",
      ],
      [{ ...to, name: "D".repeat(41) }, "invalid", "to.name must be at most 40 characters"],
      [
        { ...to, address_line1: "1".repeat(30), address_line2: "2".repeat(21) },
        "address_length_exceeds_limit",
        "The sum of to.address_line1 and to.address_line2 cannot surpass 50 characters.",
      ],
    ];
    for (const [address, code, message] of cases)
      expect(await lobAnswer("/letters", letter({ to: address, file }))).toMatchObject({
        status: 422,
        data: { error: { code, message } },
      });
    expect(lob.print.created.length).toBe(created);
    expect(await lobAnswer("/letters", letter({ to: { ...to, address_zip: "60606-1234" }, file }))).toBeNull();
  });

  it("sends Lob's rate-limit headers on every answer and 429 past the limit; the adapter waits for the window", async () => {
    lob.rateLimit(2);
    try {
      const res = await fetch(`${lob.url}/letters`, {
        headers: { authorization: `Basic ${Buffer.from(`${lob.apiKey}:`).toString("base64")}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-rate-limit-limit")).toBe("2");
      expect(Number(res.headers.get("x-rate-limit-remaining"))).toBeLessThan(2);
      expect(Number(res.headers.get("x-rate-limit-reset"))).toBeGreaterThan(Date.now() / 1000 - 1);
      const http = new LobHttp(lob.url, lob.apiKey);
      let error: unknown;
      for (let i = 0; i < 3 && !error; i++) await http.request("GET", "/letters").catch((e: unknown) => (error = e));
      const explained = explainLobError(error);
      expect(explained).toMatchObject({ reason: "rate_limited", detail: { status: 429, code: "rate_limit_exceeded" } });
      expect(explained.detail.retryAfterMs).toBeGreaterThan(0);
      expect(explained.detail.retryAfterMs).toBeLessThanOrEqual(6000);
      expect(http.lastRateLimit).toMatchObject({ limit: 2, remaining: 0 });
    } finally {
      lob.rateLimit(150);
    }
  });

  it("cancels only within Lob's 5-minute window, at the fake and in the adapter", async () => {
    const vendor = (minutes: number) =>
      new LobPrintVendor({
        baseUrl: lob.url,
        account: async () => ({ apiKey: lob.apiKey, mode: "test" }),
        clock: () => new Date(Date.now() + minutes * 60_000),
      });
    const http = new LobHttp(lob.url, lob.apiKey);
    const make = () =>
      http.request<{ id: string }>("POST", "/letters", {
        form: lobForm(letter({ file: pdf(Buffer.from([])) })),
      });
    // An empty file is not a PDF.
    await expect(make()).rejects.toMatchObject({ response: { status: 422 } });
    const file = pdf(await sheetPdf(8.5, 11));
    const a = await http.request<{ id: string }>("POST", "/letters", { form: lobForm(letter({ file })) });
    const b = await http.request<{ id: string }>("POST", "/letters", { form: lobForm(letter({ file })) });
    const job = (id: string) => ({ pieceId: "pce_x", vendorRef: id, format: "letter" as const, connectionId: "pvc_x" });
    const deletes = () => lob.print.printRequests.filter((r) => r.method === "DELETE").length;
    // Six minutes on, the adapter does not ask.
    const before = deletes();
    expect(await vendor(6).cancel(job(a.id))).toBe(false);
    expect(deletes()).toBe(before);
    expect(await vendor(0).cancel(job(a.id))).toBe(true);
    // And the fake refuses once its own clock has passed the window.
    lob.advance(6 * 60_000);
    try {
      await expect(http.request("DELETE", `/letters/${b.id}`)).rejects.toMatchObject({
        response: { status: 422, data: { error: { code: "not_deletable" } } },
      });
    } finally {
      lob.advance(-6 * 60_000);
    }
  });
});

describe("the Lob adapter", { timeout: 60_000 }, () => {
  const adapter = () =>
    new LobPrintVendor({ baseUrl: lob.url, account: async () => ({ apiKey: lob.apiKey, mode: "test" }) });
  const address = {
    name: "Dana Whitaker",
    line1: "233 S Wacker Dr",
    line2: "Floor 4",
    city: "Chicago",
    region: "IL",
    postalCode: "60606",
    country: "US",
  };
  const job = (pdfBytes: Uint8Array) => ({
    pieceId: `pce_${Math.random().toString(16).slice(2)}`,
    workspaceId: "ws_1",
    format: "letter" as const,
    pdf: pdfBytes,
    addressLines: [],
    size: "us_letter",
    to: address,
    from: { ...address, name: "Acme", line1: "185 Berry St", line2: null, postalCode: "94107" },
    connectionId: "pvc_x",
  });

  it("uploads the rendered letter, which Lob takes as it is", async () => {
    const rendered = layoutPiece({
      ...sampleRenderInput({ title: "Letter" }),
      format: "letter",
      size: "us_letter",
      layout: "classic",
      addressPrintedBy: "Lob",
    });
    const j = job(await piecePdf(rendered));
    const result = await adapter().submit(j);
    expect(result).toMatchObject({ vendorRef: expect.stringMatching(/^ltr_/), mode: "test" });
    const create = lob.print.printRequests.find((r) => r.idempotencyKey === j.pieceId)!;
    expect(create.body).toMatchObject({
      file: { filename: `${j.pieceId}.pdf`, contentType: "application/pdf" },
      address_placement: "top_first_page",
      metadata: { piece_id: j.pieceId },
    });
  });

  it("checks the file before sending: page size, page count, 5 MB and 300 dpi images, each with a sentence, and sends nothing", async () => {
    const sent = lob.print.printRequests.length;
    const refused = async (bytes: Uint8Array) => {
      const e = await adapter()
        .submit(job(bytes))
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(VendorError);
      expect((e as VendorError).reason).toBe("file_refused");
      return (e as VendorError).message;
    };
    expect(await refused(await sheetPdf(8.75, 11.25))).toBe(
      "Lob would refuse the print file: Page 1 of the letter is 8.75 × 11.25 in; Lob takes 8.5 × 11 in exactly.",
    );
    expect(await refused(await sheetPdf(8.5, 11, 61))).toBe(
      "Lob would refuse the print file: The letter has 61 pages; Lob takes at most 60.",
    );
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    expect(await refused(big)).toBe(
      "Lob would refuse the print file: The letter is 5.0 MB; Lob takes files of at most 5 MB. Use smaller images in the design.",
    );
    // A 200-pixel-wide image drawn 2 in wide prints at 100 dpi.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const png = await doc.embedPng(await tinyPng(200, 100));
    page.drawImage(png, { x: 72, y: 600, width: 144, height: 72 });
    expect(await refused(await doc.save())).toBe(
      "Lob would refuse the print file: An image on page 1 of the letter prints at 100 dpi; Lob asks for at least 300 dpi. Upload a larger image (at least 600 pixels wide).",
    );
    expect(lob.print.printRequests.length).toBe(sent);
  });

  it("reads Lob's account answers strictly: only a refused key is a revoked key", () => {
    const answer = (status: number, code: string) =>
      explainLobError({ response: { status, data: { error: { code, message: "m" } } } }).reason;
    expect(answer(403, "feature_limit_reached")).toBe("account_limit");
    expect(answer(403, "billing_address_required")).toBe("account_incomplete");
    expect(answer(401, "payment_method_unverified")).toBe("account_incomplete");
    expect(answer(401, "email_required")).toBe("account_incomplete");
    expect(answer(401, "unauthorized")).toBe("key_revoked");
    expect(answer(401, "invalid_api_key")).toBe("key_revoked");
  });
});

/** A PNG of w × h grey pixels. */
async function tinyPng(w: number, h: number): Promise<Uint8Array> {
  const { deflateSync } = await import("node:zlib");
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 0;
  const raw = Buffer.alloc((w + 1) * h, 0x80);
  for (let y = 0; y < h; y++) raw[y * (w + 1)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
