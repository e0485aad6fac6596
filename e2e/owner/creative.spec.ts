import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { expect, type Page, test } from "@playwright/test";
import { demo } from "../support/demo";
import { screenshotsDir } from "../support/env";
import { signInAs, snap } from "../support/pages";

/** A 600 x 200 PNG logo (two colours, with transparency), made here so the test needs no file. */
function logoPng(): Buffer {
  const w = 600;
  const h = 200;
  const rows = [];
  for (let y = 0; y < h; y++) {
    const row = Buffer.alloc(1 + w * 4);
    for (let x = 0; x < w; x++)
      row.set(x < 200 ? [240, 140, 0, 255] : (x + y) % 50 < 25 ? [11, 114, 133, 255] : [0, 0, 0, 0], 1 + x * 4);
    rows.push(row);
  }
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = ~0;
    for (const x of b) c = crcTable[(c ^ x) & 255] ^ (c >>> 8);
    return ~c >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Rasterises a PDF's pages with poppler (as a printer's RIP would) into the screenshots folder. */
function rasterise(pdf: Buffer, name: string) {
  const dir = mkdtempSync(path.join(tmpdir(), "proof-"));
  try {
    writeFileSync(path.join(dir, "p.pdf"), pdf);
    execFileSync("pdftoppm", ["-png", "-r", "50", path.join(dir, "p.pdf"), path.join(screenshotsDir, name)]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Searches the contacts (on the server) and picks one to preview the design for. */
async function pickContact(page: Page, fullName: string) {
  const select = page.getByRole("combobox", { name: "Preview for" });
  await select.click();
  await select.fill(fullName.split(" ")[0]);
  await page
    .getByRole("option", { name: new RegExp(`^${fullName}`) })
    .first()
    .click();
}

// Rendering every draft and proof is CPU work: on a busy two-core machine these take over a minute.
test.describe.configure({ timeout: 180_000 });

test("a new owner builds a brand kit and a first postcard design, previewed before any contact exists", async ({
  page,
}) => {
  await page.goto("/sign-up");
  await page.getByLabel("Your name").fill("Łukasz Đặng");
  await page.getByLabel("Work email").fill(`lukasz.${randomBytes(4).toString("hex")}@example.test`);
  await page.getByLabel(/^Password/).fill("a long passphrase");
  await page.getByLabel("Company or team").fill("Đặng & Wiśniewski");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(/\/w\/ws_/);

  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByRole("tab", { name: "Brand" }).click();
  await expect(page.getByLabel("Company name")).toHaveValue("Đặng & Wiśniewski");
  await page
    .locator('input[type="file"]')
    .first()
    .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: logoPng() });
  await expect(page.getByRole("img", { name: "Current logo" })).toBeVisible();
  await page.getByLabel("Primary").fill("#0b7285");
  await page.getByLabel("Street address").fill("Friedrichstraße 68");
  await page.getByLabel("City").fill("Berlin");
  await page.getByLabel("Postal code").fill("10117");
  await page.getByLabel("Country").fill("DE");
  await page.getByLabel("Sign-off").fill("Łukasz, Đặng & Wiśniewski");
  await page.getByRole("button", { name: "Save brand kit" }).click();
  await expect(page.getByText("Brand kit saved")).toBeVisible();
  await snap(page, "brand-kit-new");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await snap(page, "brand-kit-390");
  await page.setViewportSize({ width: 1366, height: 900 });

  await page.getByRole("link", { name: "Designs" }).click();
  await expect(page.getByText("No designs yet")).toBeVisible();
  await page.getByRole("link", { name: "Create the first design" }).click();
  await page.getByLabel("Name").fill("Hello postcard");
  await expect(page.getByRole("img", { name: /^Front for Ada Okafor/ })).toBeVisible({ timeout: 20_000 });
  await page.getByRole("button", { name: "Create design" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Hello postcard" })).toBeVisible();
  await snap(page, "design-first");
});

test("the owner designs a postcard, previews it for two contacts, generates drafts and rewrites one", async ({
  page,
  request,
}) => {
  const { globex } = demo().workspaces;
  await signInAs(page, globex.owner.email, globex.owner.password);

  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByRole("tab", { name: "Brand" }).click();
  await expect(page.getByLabel("Company name")).toHaveValue("Globex");
  await expect(page.getByRole("img", { name: "Current logo" })).toBeVisible();
  await page.getByLabel("Accent").fill("#e8590c");
  await page.getByRole("button", { name: "Save brand kit" }).click();
  await expect(page.getByText("Brand kit saved")).toBeVisible();
  await snap(page, "brand-kit");

  await page.getByRole("link", { name: "Designs" }).click();
  await expect(page.getByRole("link", { name: /Spring launch postcard/ })).toBeVisible();
  // Each card shows its design rendered for a sample recipient.
  await page.waitForFunction(() => {
    const fronts = [...document.images].filter((i) => i.alt.startsWith("Front of"));
    return fronts.length > 0 && fronts.every((i) => i.complete && i.naturalWidth > 0);
  });
  await snap(page, "designs-list");
  await page.getByRole("link", { name: "New design" }).click();
  const name = `Renewal postcard ${randomBytes(2).toString("hex")}`;
  await page.getByLabel("Name").fill(name);
  await page.getByRole("combobox", { name: "Layout" }).click();
  await page.getByRole("option", { name: "Split" }).click();
  await page.getByRole("combobox", { name: "Image" }).click();
  await page.getByRole("option", { name: "Artwork: dots" }).click();
  await page.getByLabel("Headline").fill("{{firstName|Hello}}, your renewal plan for {{company}}");

  await pickContact(page, "Ada Okafor");
  await expect(page.getByRole("img", { name: "Front for Ada Okafor" })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText("On the free audit plan every page carries “Specimen — not mailed”.")).toBeVisible();
  await snap(page, "design-preview-ada");
  await pickContact(page, "Ben Hartley");
  await expect(page.getByRole("img", { name: "Front for Ben Hartley" })).toBeVisible({ timeout: 20_000 });
  await snap(page, "design-preview-ben");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await snap(page, "design-preview-390");
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.getByRole("button", { name: "Create design" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const designId = page.url().split("/").pop()!;

  // A campaign that prints the design, then its drafts.
  await page.getByRole("link", { name: "Campaigns" }).click();
  await page.getByRole("link", { name: "New campaign" }).first().click();
  const campaign = `Renewals ${randomBytes(2).toString("hex")}`;
  await page.getByLabel(/^Name/).fill(campaign);
  await page.getByRole("combobox", { name: "Audience" }).click();
  await page.getByRole("option", { name: /Target accounts \(demo\)/ }).click();
  await page.getByRole("combobox", { name: "Design" }).click();
  await page.getByRole("option", { name: new RegExp(name) }).click();
  await page.getByLabel("Destination URL").fill("https://www.globex.example/renew");
  await page.getByRole("button", { name: "Create draft" }).click();
  await expect(page.getByRole("heading", { level: 1, name: campaign })).toBeVisible();
  await page.getByRole("button", { name: "Generate drafts" }).click();
  await expect(page.getByText("Drafts ready", { exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(/^All \(\d+\)$/)).toBeVisible();
  await page.waitForFunction(() => {
    const fronts = [...document.images].filter((i) => i.alt.startsWith("Front of the piece"));
    return fronts.length > 0 && fronts.every((i) => i.complete && i.naturalWidth > 0);
  });
  await snap(page, "drafts-grid");

  const card = page.getByRole("button", { name: /^Open the draft for / }).first();
  const recipient = (await card.getAttribute("aria-label"))!.replace("Open the draft for ", "");
  await card.click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("img", { name: `Front of the piece for ${recipient}` })).toBeVisible();
  await dialog
    .getByLabel("Headline")
    .fill(`${recipient.split(" ")[0]}, we kept a seat for you at the renewal roundtable`);
  await dialog.getByRole("button", { name: "Save this recipient's copy" }).click();
  // The save renders the draft again (fonts, layout, a PDF): slow while the drafts job renders in the same process.
  await expect(page.getByText("Draft rewritten")).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByText("Edited for this recipient")).toBeVisible();
  await snap(page, "draft-edited");
  const printFile = await dialog.getByRole("link", { name: /^Print file \(PDF/ }).getAttribute("href");
  const pdf = await page.request.get(printFile!);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  rasterise(Buffer.from(await pdf.body()), "draft-edited-pdf");
  await page.keyboard.press("Escape");
  await page.getByText(/^Edited \(1\)$/).click();
  await expect(page.getByRole("button", { name: /^Open the draft for/ })).toHaveCount(1);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByText(/^Edited \(1\)$/)).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await snap(page, "drafts-grid-390");

  // The design's print proof, rasterised as a printer would; nobody signed out can open it.
  const proof = await page.request.get(`/api/designs/${designId}/proof?workspaceId=${globex.id}`);
  expect(proof.headers()["content-type"]).toBe("application/pdf");
  rasterise(Buffer.from(await proof.body()), "design-proof-pdf");
  const anonymous = await request.get(`/api/designs/${designId}/proof?workspaceId=${globex.id}`);
  expect(anonymous.status()).toBe(404);
});
