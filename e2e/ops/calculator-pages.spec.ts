import { expect, test } from "@playwright/test";
import { snap } from "../support/pages";

for (const [slug, title, answer] of [
  ["holdout-size", "Holdout size", /Hold out 5,691 accounts and mail 5,691 \(11,382 in all\)/],
  ["minimum-detectable-lift", "Minimum detectable lift", /the smallest lift you can detect is 33\.3%/],
  ["break-even", "Break-even response rate", /pays for itself at a 0\.150% response rate/],
  ["test-duration", "Test duration", /Enrol for 19 weeks \(18,128 accounts\).*163 days in all/],
] as const) {
  test(`the ${slug} page shows a form, the answer in words and a chart`, async ({ page }) => {
    await page.goto(`/tools/${slug}`);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByText(answer)).toBeVisible();
    await expect(page.locator(".recharts-surface").first()).toBeVisible();
    await snap(page, `tool-${slug}`);
  });
}

test("changing an input changes the answer, and a bad one says why", async ({ page }) => {
  await page.goto("/tools/holdout-size");
  await expect(page.getByText(/Hold out 5,691 accounts/)).toBeVisible();
  const lift = page.getByLabel("Lift to detect");
  await lift.fill("10");
  await expect(page.getByText(/Hold out 2[0-9],[0-9]{3} accounts/)).toBeVisible();
  const baseline = page.getByLabel("Baseline conversion rate");
  await baseline.fill("95");
  await expect(page.getByText("baselineRate must be at most 0.9", { exact: false }).first()).toBeVisible();
});
