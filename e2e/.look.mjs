import { chromium } from "@playwright/test";
import fs from "node:fs";
const demo = JSON.parse(fs.readFileSync("/tmp/look-data/demo.json", "utf8"));
const a = demo.workspaces.acme;
const base = "http://localhost:3210";
const w = `${base}/w/${a.id}`;
const pages = JSON.parse(process.argv[2]);
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
for (const [width, tag] of [[1280, "d"], [390, "m"]]) {
  const ctx = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(`${base}/sign-in`);
  await page.getByLabel("Email").fill(a.owner.email);
  await page.getByLabel(/^Password/).fill(a.owner.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/w\/ws_/);
  for (const [name, path] of pages) {
    await page.goto(`${w}${path.replace("{live}", a.campaigns.liveApiEntry).replace("{undeliverable}", a.contacts.undeliverable)}`);
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `/tmp/shots/${name}-${tag}.png`, fullPage: true });
  }
  await ctx.close();
}
await browser.close();
