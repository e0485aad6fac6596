import { expect, test } from "@playwright/test";
import { snap } from "../support/pages";

test("the API reference page renders the published document for people", async ({ page }) => {
  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { level: 1, name: "Direct Mail Programme API" })).toBeVisible({
    timeout: 30_000,
  });
  for (const operation of ["Post a campaign entry event", "Read an entry event", "Report a conversion"]) {
    await expect(page.getByText(operation, { exact: true }).first()).toBeVisible();
  }
  await expect(page.getByText("Ask AI")).toHaveCount(0);
  await snap(page, "docs-api");
});

test("a problem type's page explains the problem and the fix", async ({ page }) => {
  await page.goto("/problems/idempotency-key-reused");
  await expect(
    page.getByRole("heading", { level: 1, name: "The idempotency key was used for a different request" }),
  ).toBeVisible();
  await expect(page.getByText("HTTP 409")).toBeVisible();
  await expect(page.getByText(/Use a new key for a new source event/)).toBeVisible();
  await snap(page, "problem-page");
});
