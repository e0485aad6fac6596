import { fromAddress, uniqueAddress } from "./addresses";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { screenshotsDir } from "./env";

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Signs in and waits until the workspace has opened (the session cookie is set). */
export async function signInAs(page: Page, email: string, password: string) {
  await signIn(page, email, password);
  await page.waitForURL(/\/w\/ws_/);
}

export async function signOut(page: Page) {
  await page.getByRole("button", { name: /Account menu/ }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
}

/** Saves a full-page screenshot under e2e/.artifacts/screenshots to be looked at. */
export async function snap(page: Page, name: string) {
  await page.screenshot({ path: path.join(screenshotsDir, `${name}.png`), fullPage: true });
}

/** Signs up a brand-new person with a workspace of their own; returns the workspace's URL. */
export async function signUp(page: Page, p: { name: string; company: string; email?: string; password?: string }) {
  const email =
    p.email ?? `${p.name.split(" ")[0].toLowerCase()}.${Math.random().toString(16).slice(2, 10)}@example.test`;
  // A client address of its own: sign-ups are limited per address, and every spec's browser would share one.
  await page.setExtraHTTPHeaders(fromAddress(uniqueAddress()));
  await page.goto("/sign-up");
  await page.getByLabel("Your name").fill(p.name);
  await page.getByLabel("Work email").fill(email);
  await page.getByLabel(/^Password/).fill(p.password ?? "a long passphrase");
  await page.getByLabel("Company or team").fill(p.company);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/w\/ws_[0-9a-f]{32}$/);
  return { url: page.url(), workspaceId: page.url().split("/w/")[1], email };
}

/** Screenshots of the page at a laptop's and a phone's width (name-1366.png, name-390.png). */
export async function snapWidths(page: Page, name: string) {
  const original = page.viewportSize();
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    // The layout switches on the new width by script (media-query hooks), later on a busy machine: a
    // page still wider than the screen after five seconds is really too wide.
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await expect
      .poll(overflow, { message: `${name} is wider than a ${width} px screen`, timeout: 5_000 })
      .toBeLessThanOrEqual(1);
    await snap(page, `${name}-${width}`);
  }
  if (original) await page.setViewportSize(original);
}
