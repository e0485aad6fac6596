import { expect, test } from "@playwright/test";
import { demo } from "../support/demo";
import { signIn, snap } from "../support/pages";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

test("the owner creates a key, sees its secret once, uses it, and revokes it: it stops working at once", async ({
  page,
  request,
}) => {
  const { globex } = demo().workspaces;
  await signIn(page, globex.owner.email, globex.owner.password);
  await expect(page.getByRole("heading", { level: 1, name: "Globex" })).toBeVisible();
  await page.getByRole("link", { name: "Settings" }).click();
  // Settings open on their first tab, Plan.
  await expect(page).toHaveURL(`/w/${globex.id}/settings/plan`);
  await expect(page.getByRole("tab", { name: "Plan" })).toHaveAttribute("aria-selected", "true");
  await page.getByRole("tab", { name: "API keys" }).click();
  await expect(page).toHaveURL(`/w/${globex.id}/settings/api-keys`);
  await expect(page.getByRole("heading", { name: "API keys" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "CRM sync (demo)", exact: true })).toBeVisible();
  await snap(page, "settings-api-keys");

  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("checkbox", { name: "post_entry_events" })).toBeChecked();
  await expect(dialog.getByRole("checkbox", { name: "post_conversions" })).toBeChecked();
  await dialog.getByLabel(/^Name/).fill("Billing webhook");
  await dialog.getByRole("checkbox", { name: "post_entry_events" }).uncheck();
  await dialog.getByRole("button", { name: "Create key" }).click();

  const secretBox = dialog.getByLabel("New API key");
  await expect(secretBox).toHaveText(/^dmk_[0-9A-Za-z]{32}$/);
  const secret = (await secretBox.textContent())!;
  await dialog.getByRole("button", { name: "Copy" }).click();
  await expect(dialog.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await snap(page, "settings-api-key-created");
  await dialog.getByRole("button", { name: "Done" }).click();

  const row = page.getByRole("row", { name: /Billing webhook/ });
  await expect(row).toContainText(`${secret.slice(0, 8)}…`);
  await expect(row).toContainText("post_conversions");
  await expect(row).not.toContainText("post_entry_events");
  await expect(row).toContainText("Never");
  // The secret is not shown again anywhere.
  await page.reload();
  await expect(page.getByText(secret)).toHaveCount(0);

  const report = () =>
    request.post("/api/v1/conversions", {
      headers: { Authorization: `Bearer ${secret}` },
      data: { sid: globex.sids[1], kind: "reply" },
      failOnStatusCode: false,
    });
  expect((await report()).status()).toBe(202);
  const entry = await request.post(`/api/v1/campaigns/${globex.campaigns.liveApiEntry}/events`, {
    headers: { Authorization: `Bearer ${secret}` },
    data: { contactId: globex.contacts.inAudience[0], idempotencyKey: "billing-webhook-1" },
    failOnStatusCode: false,
  });
  expect(entry.status()).toBe(403);

  await page.reload();
  await expect(page.getByRole("row", { name: /Billing webhook/ })).not.toContainText("Never");
  await page.getByRole("button", { name: "Revoke Billing webhook" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByRole("row", { name: /Billing webhook/ })).toContainText("Revoked");
  const after = await report();
  expect(after.status()).toBe(401);
  expect(after.headers()["www-authenticate"]).toContain('error="invalid_token"');
  await snap(page, "settings-api-key-revoked");
});
