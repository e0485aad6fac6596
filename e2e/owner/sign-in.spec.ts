import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { demo } from "../support/demo";
import { signIn, signOut, snap } from "../support/pages";

const WRONG = "The email or the password is not right. Check both and try again.";

test.describe("owner sign-up, sign-in and sign-out", () => {
  test("sign-up creates an audit-plan workspace and opens it; sign-out ends the session", async ({ page }) => {
    const email = `ada.${randomBytes(4).toString("hex")}@example.test`;
    await page.goto("/sign-up");
    await snap(page, "sign-up");
    await page.getByLabel("Your name").fill("Ada Okafor");
    await page.getByLabel("Work email").fill(email);
    await page.getByLabel(/^Password/).fill("a long passphrase");
    await page.getByLabel("Company or team").fill("Okafor Labs");
    await page.getByRole("button", { name: "Create account" }).click();

    await expect(page).toHaveURL(/\/w\/ws_[0-9a-f]{32}$/);
    await expect(page.getByRole("heading", { level: 1, name: "Okafor Labs" })).toBeVisible();
    await expect(page.getByText("Free audit plan", { exact: true })).toBeVisible();
    await expect(page.getByText("No campaigns yet")).toBeVisible();
    await snap(page, "workspace-new-audit");
    const workspaceUrl = page.url();

    await signOut(page);
    await page.goto(workspaceUrl);
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fw%2Fws_/);

    // Signing in again returns to the page that asked for it.
    await page.getByLabel("Email").fill(email);
    await page.getByLabel(/^Password/).fill("a long passphrase");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(workspaceUrl);

    // A confirmation card's link opened while signed out comes back to that card after sign-in.
    await signOut(page);
    await page.goto(`${workspaceUrl}/confirmations#card-cc_example`);
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fw%2Fws_[0-9a-f]{32}%2Fconfirmations#card-cc_example$/);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel(/^Password/).fill("a long passphrase");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${workspaceUrl}/confirmations#card-cc_example`);
    await expect(page.getByRole("heading", { level: 1, name: "Confirmations" })).toBeVisible();
  });

  test("a duplicate sign-up is refused with a clear message and the first account still works", async ({ page }) => {
    const email = `dup.${randomBytes(4).toString("hex")}@example.test`;
    for (const attempt of [1, 2]) {
      await page.goto("/sign-up");
      await page.getByLabel("Your name").fill(`Person ${attempt}`);
      await page.getByLabel("Work email").fill(attempt === 1 ? email : email.toUpperCase());
      await page.getByLabel(/^Password/).fill(`passphrase number ${attempt}`);
      await page.getByLabel("Company or team").fill(`Team ${attempt}`);
      await page.getByRole("button", { name: "Create account" }).click();
      if (attempt === 1) {
        await expect(page.getByRole("heading", { level: 1, name: "Team 1" })).toBeVisible();
        await signOut(page);
      }
    }
    await expect(page.getByText("An account already uses this email address. Sign in instead.")).toBeVisible();
    await expect(page).toHaveURL(/\/sign-up$/);
    await snap(page, "sign-up-duplicate");

    await signIn(page, email, "passphrase number 2");
    await expect(page.getByRole("alert", { name: "Could not sign in" })).toContainText(WRONG);
    await signIn(page, email, "passphrase number 1");
    await expect(page.getByRole("heading", { level: 1, name: "Team 1" })).toBeVisible();
  });

  test("a wrong password and an unknown email get the same clear message and no session", async ({ page }) => {
    const { acme } = demo().workspaces;
    await signIn(page, acme.owner.email, "not the password");
    await expect(page.getByRole("alert", { name: "Could not sign in" })).toContainText(WRONG);
    await snap(page, "sign-in-wrong-password");
    await signIn(page, `nobody.${randomBytes(4).toString("hex")}@example.test`, "whatever it is");
    await expect(page.getByRole("alert", { name: "Could not sign in" })).toContainText(WRONG);
    await page.goto(`/w/${acme.id}`);
    await expect(page).toHaveURL(/\/sign-in/);
  });

  test("the demo owner sees Acme, creates a second workspace and switches between them", async ({ page }) => {
    const { acme, globex } = demo().workspaces;
    await signIn(page, acme.owner.email, acme.owner.password);
    await expect(page).toHaveURL(`/w/${acme.id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Acme" })).toBeVisible();
    await expect(page.getByText("Mailing is on")).toBeVisible();
    await expect(page.getByText("Live campaigns")).toBeVisible();
    await snap(page, "workspace-acme-overview");

    // Another person's workspace is simply not there.
    await page.goto(`/w/${globex.id}`);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();

    await page.goto(`/w/${acme.id}`);
    await page.getByRole("button", { name: /Switch workspace/ }).click();
    await page.getByRole("menuitem", { name: "New workspace" }).click();
    const name = `Side project ${randomBytes(2).toString("hex")}`;
    await page.getByRole("dialog").getByLabel("Name").fill(name);
    await page.getByRole("button", { name: "Create workspace" }).click();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(page.getByText("Free audit plan", { exact: true })).toBeVisible();

    await page.getByRole("button", { name: /Switch workspace/ }).click();
    await snap(page, "workspace-switcher");
    await page.getByRole("menuitem", { name: /^Acme/ }).click();
    await expect(page).toHaveURL(`/w/${acme.id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Acme" })).toBeVisible();
  });
});

test("an unknown campaign or workspace is a 404 inside the app's frame", async ({ page }) => {
  const { acme } = demo().workspaces;
  await signIn(page, acme.owner.email, acme.owner.password);
  await page.waitForURL(/\/w\/ws_/);
  const campaign = await page.goto(`/w/${acme.id}/campaigns/cmp_doesnotexist`);
  expect(campaign?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Campaigns", exact: true })).toBeVisible();
  const workspace = await page.goto("/w/ws_doesnotexist");
  expect(workspace?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Direct Mail" })).toBeVisible();
  await snap(page, "workspace-not-found");
});
