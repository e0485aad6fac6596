import { expect, test } from "@playwright/test";
import { signUp, snapWidths } from "../support/pages";

test("a new person chooses the paid plan, adds a sandbox printer at its quote, approves it, and can go back to the audit plan", async ({
  page,
}) => {
  const { workspaceId } = await signUp(page, { name: "Priya Natarajan", company: "Natarajan Freight" });
  await page.goto(`/w/${workspaceId}/settings/plan`);
  await expect(page.getByRole("heading", { name: "Plan", exact: true })).toBeVisible();
  // Each plan's card by its heading (the free plan's card mentions the paid plan too).
  const audit = page
    .locator(".mantine-Card-root")
    .filter({ has: page.getByRole("heading", { name: "Free audit plan", exact: true }) });
  const paid = page
    .locator(".mantine-Card-root")
    .filter({ has: page.getByRole("heading", { name: "Paid plan", exact: true }) });
  await expect(audit.getByText("Current plan")).toBeVisible();
  await expect(page.getByText("no card is charged")).toBeVisible();
  await snapWidths(page, "settings-plan-audit");

  await paid.getByRole("button", { name: "Choose the paid plan" }).click();
  const dialog = page.getByRole("dialog", { name: "Choose the paid plan?" });
  await expect(dialog).toContainText("Mailing turns on");
  await dialog.getByRole("button", { name: "Choose the paid plan" }).click();
  await expect(paid.getByText("Current plan")).toBeVisible();
  await expect(paid).toContainText(/Subscription sbx_sub_[0-9a-f]{16} \(sandbox\)/);
  await expect(page.getByRole("banner").getByText("Paid plan", { exact: false })).toBeVisible();

  await page.getByRole("tab", { name: "Printing" }).click();
  await expect(page).toHaveURL(`/w/${workspaceId}/settings/printing`);
  await expect(page.getByText("No printer yet")).toBeVisible();
  await snapWidths(page, "settings-printing-empty");

  await page.getByRole("button", { name: "Add your first contract" }).click();
  const add = page.getByRole("dialog", { name: "Add a printer contract" });
  await add.getByLabel("Name").fill("6x9 postcards, US and Canada");
  await add.getByRole("combobox", { name: "Size" }).click();
  await page.getByRole("option", { name: "6 × 9 in postcard" }).click();
  await add.getByRole("combobox", { name: "Countries it mails to" }).click();
  await page.getByRole("option", { name: "Canada (CA)" }).click();
  await page.keyboard.press("Escape");
  await expect(add.getByRole("row", { name: /Canada/ })).toContainText("$2.18");
  await expect(add.getByText("Quote: $1.04 to $2.18 per piece, by the recipient's country")).toBeVisible();
  await snapWidths(page, "settings-printing-quote");
  await add.getByRole("button", { name: "Propose contract" }).click();

  const row = page.getByRole("row", { name: /6x9 postcards, US and Canada/ });
  await expect(row).toContainText("proposed");
  await expect(row).toContainText("$2.18");
  await row.getByRole("button", { name: "Approve 6x9 postcards, US and Canada" }).click();
  await page
    .getByRole("dialog", { name: "Approve this contract?" })
    .getByRole("button", { name: "Approve contract" })
    .click();
  await expect(row).toContainText("approved");
  await snapWidths(page, "settings-printing-approved");

  await page.getByRole("tab", { name: "Plan" }).click();
  await audit.getByRole("button", { name: "Go back to the free audit plan" }).click();
  const back = page.getByRole("dialog", { name: "Go back to the free audit plan?" });
  await expect(back).toContainText("New mail stops at once");
  await back.getByRole("button", { name: "Stop mailing and go back" }).click();
  await expect(audit.getByText("Current plan")).toBeVisible();
  await page.getByRole("tab", { name: "Printing" }).click();
  await expect(page.getByText("approved contracts print nothing until you")).toBeVisible();
});
