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
