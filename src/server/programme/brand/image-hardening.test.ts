import { readFileSync } from "node:fs";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { imageAsset } from "@/server/ground/render/images";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { dataUrl, makePng } from "@/test/images";
import { getBrandImage, updateBrandKit } from "./service";
import { sanitiseSvg } from "@/server/ground/render/svg-sanitise";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});
const actor = { kind: "user" as const, id: null, label: "owner@example.test" };

/** A PNG whose header declares width × height but whose pixel data is a few hundred bytes: what a decompression bomb looks like. */
function pngDeclaring(width: number, height: number, idat = deflateSync(Buffer.alloc(1000))): Buffer {
  const png = makePng(64, 64);
  const ihdrAt = 8 + 8;
  png.writeUInt32BE(width, ihdrAt);
  png.writeUInt32BE(height, ihdrAt + 4);
  const idatAt = png.indexOf("IDAT") - 4;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(idat.length);
  return Buffer.concat([
    png.subarray(0, idatAt),
    len,
    Buffer.from("IDAT"),
    idat,
    Buffer.alloc(4),
    png.subarray(png.indexOf("IEND") - 4),
  ]);
}

const favicon = readFileSync(path.join(process.cwd(), "public/favicon.svg"));
/** Signs of the file's content in a stored or rendered SVG: its bytes as text, or as base64 in a data URL. */
const leaks = (svg: string) =>
  svg.includes(favicon.toString("base64").slice(0, 40)) ||
  svg.includes(favicon.toString("utf8").slice(0, 60)) ||
  svg.includes("image/svg+xml");

describe("an SVG logo never reads anything outside itself", () => {
  const references = [
    `<image href="public/favicon.svg" width="100" height="50"/>`,
    `<image xlink:href="${path.join(process.cwd(), "public/favicon.svg")}" width="100" height="50"/>`,
    `<image href="file://${path.join(process.cwd(), "public/favicon.svg")}" width="100" height="50"/>`,
    `<image href="https://evil.example/x.png" width="100" height="50"/>`,
    `<use href="public/favicon.svg#a"/>`,
    `<rect width="50" height="50" fill="url(public/favicon.svg#p)" style="fill:url('file:///etc/passwd#x');stroke:#000"/>`,
    `<style>@import url("public/favicon.svg"); rect { fill: red }</style>`,
    `<foreignObject width="10" height="10"><iframe src="public/favicon.svg"/></foreignObject>`,
    `<script href="public/favicon.svg"/>`,
  ];

  it('drops every file, path and outside reference from the stored logo (the reproduction: <image href="public/favicon.svg"/>)', async () => {
    const o = await createOwnerWorkspace(prisma);
    for (const reference of references) {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="80"><rect width="120" height="80" fill="#1c3d5a"/>${reference}</svg>`;
      const kit = await updateBrandKit(prisma, {
        workspaceId: o.workspaceId,
        actor,
        input: { logo: dataUrl("image/svg+xml", svg) },
      });
      expect(kit.logo).toEqual({ type: "image/svg+xml", width: 200, height: 80 });
      const stored = (await getBrandImage(prisma, { workspaceId: o.workspaceId, which: "logo" }))!.bytes.toString(
        "utf8",
      );
      expect(leaks(stored), reference).toBe(false);
      for (const bad of ["favicon", "passwd", "evil.example", "@import", "file:", "script", "foreignObject", "href"])
        expect(stored, reference).not.toContain(bad);
      expect(stored).toContain("<path");
    }
  }, 120_000);

  it("keeps what is self-contained: local gradients, <use> of a shape, embedded PNG images, class styles", () => {
    const png = dataUrl("image/png", makePng(64, 64));
    const out = sanitiseSvg(
      `<?xml version="1.0"?><!DOCTYPE svg><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"><defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient><circle id="c" r="2"/></defs><style>.a{fill:#123456}</style><rect class="a" width="5" height="5" fill="url(#g)"/><use xlink:href="#c"/><image href="${png}" width="4" height="4"/><a href="https://x.example"><path d="M0 0h1v1z"/></a></svg>`,
    );
    expect(out).toContain(`fill="url(#g)"`);
    expect(out).toContain(`<use xlink:href="#c"/>`);
    expect(out).toContain(`href="${png}"`);
    expect(out).toContain(".a{fill:#123456}");
    expect(out).toContain(`<g><path d="M0 0h1v1z"/></g>`);
    expect(out).not.toContain("x.example");
  });

  it("drops an embedded image that is itself an SVG or declares more than 25 megapixels, and a <use> of a <use>", () => {
    const nested = dataUrl(
      "image/svg+xml",
      `<svg xmlns="http://www.w3.org/2000/svg"><image href="public/favicon.svg"/></svg>`,
    );
    const bomb = dataUrl("image/png", pngDeclaring(8000, 8000));
    const out = sanitiseSvg(
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><image href="${nested}"/><image href="${bomb}"/><g id="a"><use href="#b"/></g><g id="c"><use href="#a"/></g><rect id="b" width="1" height="1"/></svg>`,
    );
    expect(out).not.toContain("data:");
    expect(out).toContain(`<use href="#b"/>`);
    expect(out).not.toContain(`href="#a"`);
  });

  it("refuses a document that is not readable XML (an entity, unclosed tags) and writes nothing", async () => {
    const o = await createOwnerWorkspace(prisma);
    for (const svg of [
      `<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg" width="90" height="90"><text>&x;</text><rect width="9" height="9"/></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg"><rect>`,
    ]) {
      const error = await updateBrandKit(prisma, {
        workspaceId: o.workspaceId,
        actor,
        input: { logo: dataUrl("image/svg+xml", svg) },
      }).catch((e) => e);
      expect(error.message).toBe("The logo could not be read as an SVG drawing.");
    }
    expect(await prisma.brandKit.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
  }, 120_000);

  it("renders a logo stored before sanitising existed without reading the file it names", () => {
    const stored = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="80"><image href="public/favicon.svg" width="200" height="80"/></svg>`,
    );
    const asset = imageAsset(stored, "image/svg+xml", 200)!;
    // The favicon would paint pixels; with the reference dropped the rendering is fully transparent.
    const pixels = asset.bytes;
    const clean = imageAsset(
      Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="200" height="80"/>`),
      "image/svg+xml",
      200,
    )!;
    expect(pixels.equals(clean.bytes)).toBe(true);
  });
});

describe("an image's pixel count is limited before it is decoded", () => {
  it("refuses a PNG declaring 8000 × 8000 pixels (the 187 KB bomb) at once, from its header, with a sentence; and one of 30 megapixels", async () => {
    const o = await createOwnerWorkspace(prisma);
    const attempt = (png: Buffer) =>
      updateBrandKit(prisma, { workspaceId: o.workspaceId, actor, input: { logo: dataUrl("image/png", png) } }).catch(
        (e) => e,
      );
    const started = performance.now();
    expect((await attempt(pngDeclaring(8000, 8000))).message).toBe(
      "The logo is 8000 × 8000 pixels (64 megapixels); at most 25 megapixels. Export it smaller: 300 pixels per inch of print is plenty.",
    );
    expect((await attempt(pngDeclaring(6000, 5000))).message).toBe(
      "The logo is 6000 × 5000 pixels (30 megapixels); at most 25 megapixels. Export it smaller: 300 pixels per inch of print is plenty.",
    );
    // Read from the header only: nothing was inflated (a decode of 64 MP takes seconds).
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await prisma.brandKit.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
  }, 120_000);

  it("refuses a PNG whose pixel data is shorter or longer than its header declares, and accepts a whole one", async () => {
    const o = await createOwnerWorkspace(prisma);
    const attempt = (png: Buffer) =>
      updateBrandKit(prisma, { workspaceId: o.workspaceId, actor, input: { logo: dataUrl("image/png", png) } }).catch(
        (e) => e,
      );
    expect((await attempt(pngDeclaring(2000, 2000))).message).toBe(
      "The logo could not be read as a PNG: the file is damaged.",
    );
    expect((await attempt(pngDeclaring(10, 100, deflateSync(Buffer.alloc(10_000_000))))).message).toBe(
      "The logo could not be read as a PNG: the file is damaged.",
    );
    expect(await prisma.brandKit.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
    const kit = await updateBrandKit(prisma, {
      workspaceId: o.workspaceId,
      actor,
      input: { logo: dataUrl("image/png", makePng(300, 100)) },
    });
    expect(kit.logo).toEqual({ type: "image/png", width: 300, height: 100 });
  }, 120_000);

  it("does not render a stored image over the limit", () => {
    expect(imageAsset(pngDeclaring(8000, 8000), "image/png")).toBeNull();
  });
});
