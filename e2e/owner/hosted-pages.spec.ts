import AxeBuilder from "@axe-core/playwright";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { demo } from "../support/demo";
import { signInAs, snap } from "../support/pages";

/** Most people open these pages on a phone after scanning the QR code. */
const PHONE = {
  viewport: { width: 390, height: 844 },
  userAgent:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  isMobile: true,
  hasTouch: true,
};
const DESKTOP = {
  viewport: { width: 1366, height: 900 },
  userAgent:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
};

async function accessible(page: Page, name: string) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    `${name}: accessibility`,
  ).toEqual([]);
}

async function notWiderThanScreen(page: Page, name: string) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${name} is wider than the screen`).toBeLessThanOrEqual(1);
}

/** Opens a hosted page as its recipient would, checking what every answer carries. */
async function open(context: BrowserContext, url: string) {
  const page = await context.newPage();
  const res = await page.goto(url);
  expect(res!.status()).toBe(200);
  const headers = res!.headers();
  expect(headers["x-robots-tag"]).toContain("noindex");
  expect(headers["content-security-policy"]).toContain("script-src 'none'");
  expect(headers["cache-control"]).toBe("no-store");
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  expect(await page.locator("script").count()).toBe(0);
  return page;
}

test.describe("hosted response pages, as a recipient sees them", () => {
  test("a personal landing page at phone and desktop width: the message, then a reply that is recorded once", async ({
    browser,
  }) => {
    const { acme } = demo().workspaces;
    const desktop = await browser.newContext(DESKTOP);
    const wide = await open(desktop, `/r/${acme.hostedPageCode}`);
    await expect(wide.getByRole("heading", { level: 1 })).toContainText("how is the pilot going?");
    await notWiderThanScreen(wide, "landing page at 1366 px");
    await snap(wide, "hosted-landing-1366");
    await desktop.close();

    const phone = await browser.newContext(PHONE);
    const page = await open(phone, `/r/${acme.hostedPageCode}?via=qr`);
    await expect(page.getByText(/^For .+, .+/)).toBeVisible();
    await notWiderThanScreen(page, "landing page at 390 px");
    await accessible(page, "landing page");
    await snap(page, "hosted-landing-390");

    // The browser's own check first (nothing written), then the server's answer beside the field.
    await page.getByRole("button", { name: "Send reply" }).click();
    await expect(page.getByLabel("Your message")).toBeFocused();
    await page
      .getByLabel("Your message")
      .fill("Thanks! The pilot is going well. Could we add two more warehouses next month?");
    await page.getByLabel(/How should they reach you/).fill("ops-lead@example.test");
    await page.getByRole("button", { name: "Send reply" }).click();
    await expect(page.getByRole("status")).toContainText("has your message");
    await accessible(page, "landing page after a reply");
    await snap(page, "hosted-landing-replied-390");
    // Reloading re-sends the same form: still one reply.
    await page.reload();
    await expect(page.getByRole("status")).toContainText("has your message");
    await phone.close();
  });

  test("a gift claim page at phone and desktop width: choose a gift, a corrected address checked as the audit does, then the claim", async ({
    browser,
  }) => {
    const { acme } = demo().workspaces;
    const desktop = await browser.newContext(DESKTOP);
    const wide = await open(desktop, `/r/${acme.giftClaimCode}`);
    await expect(wide.getByRole("heading", { name: "Where should it go?" })).toBeVisible();
    await notWiderThanScreen(wide, "gift claim page at 1366 px");
    await snap(wide, "hosted-gift-1366");
    await desktop.close();

    const phone = await browser.newContext(PHONE);
    const page = await open(phone, `/r/${acme.giftClaimCode}?via=qr`);
    await expect(page.getByRole("group", { name: "Choose one" })).toBeVisible();
    await notWiderThanScreen(page, "gift claim page at 390 px");
    await accessible(page, "gift claim page");
    await snap(page, "hosted-gift-390");

    await page.getByRole("radio", { name: /Handmade chocolates/ }).check();
    await page.getByLabel("Street address").fill("77 Summer Street");
    await page.getByLabel(/Apartment, suite or floor/).fill("Floor 5");
    await page.getByLabel("City").fill("Boston");
    await page.getByLabel(/State, province or region/).fill("Massachusetts");
    await page.getByLabel("Postal code").fill("2110");
    await page.getByRole("button", { name: "Claim my gift" }).click();
    await expect(page.getByText("Did you mean 02110?")).toBeVisible();
    await expect(page.getByLabel("Postal code")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Postal code")).toBeFocused();
    await expect(page.getByRole("radio", { name: /Handmade chocolates/ })).toBeChecked();
    await accessible(page, "gift claim page with an error");
    await snap(page, "hosted-gift-error-390");

    await page.getByLabel("Postal code").fill("02110");
    await page.getByRole("button", { name: "Claim my gift" }).click();
    await expect(page.getByRole("heading", { name: "Your gift is claimed" })).toBeVisible();
    await expect(page.getByText("You claimed the Handmade chocolates")).toBeVisible();
    await expect(page.locator("address")).toContainText("77 Summer Street");
    await expect(page.locator("address")).toContainText("Boston, MA 02110");
    await accessible(page, "claimed gift");
    await snap(page, "hosted-gift-claimed-390");
    await phone.close();
  });

  test("the owner sees what recipients did on the campaign's page", async ({ page }) => {
    const { acme } = demo().workspaces;
    await signInAs(page, acme.owner.email, acme.owner.password);
    await page.goto(`/w/${acme.id}/campaigns/${acme.campaigns.hostedPage}`);
    await expect(page.getByText("The printed link opens a personal landing page with a reply form.")).toBeVisible();
    const responses = page.locator("#responses");
    await expect(responses.getByRole("heading", { name: "Responses" })).toBeVisible();
    await expect(responses).toContainText("Could someone walk our finance team through the invoices?");
    await snap(page, "hosted-owner-responses");

    await page.goto(`/w/${acme.id}/campaigns/${acme.campaigns.giftClaim}`);
    await expect(page.locator("#responses")).toContainText("Address changed");
    await expect(page.locator("#claims").getByRole("heading", { name: "Gifts waiting for a claim" })).toBeVisible();
    await snap(page, "hosted-owner-gifts");
  });

  test("an unknown code and a cross-site form post get nowhere", async ({ request }) => {
    const { acme } = demo().workspaces;
    const unknown = await request.get("/r/ZZZZZZZZZZ");
    expect(unknown.status()).toBe(404);
    const forged = await request.post(`/r/${acme.hostedPageCode}`, {
      headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
      data: "action=reply&message=hi",
    });
    expect(forged.status()).toBe(403);
  });
});
