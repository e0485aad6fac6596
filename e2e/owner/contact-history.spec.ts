import { expect, test } from "@playwright/test";
import { signUp, snapWidths } from "../support/pages";

test.setTimeout(180_000);

test("a person corrects a contact's postcode, reads the field history and puts the old value back", async ({
  page,
}) => {
  const { url } = await signUp(page, { name: "Noor Haddad", company: "Haddad Freight" });
  await page.goto(`${url}/contacts`);
  await page.getByRole("button", { name: "Add contact" }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("First name").fill("Ada");
  await dialog.getByLabel("Last name").fill("Okafor");
  await dialog.getByLabel("Email").fill("ada@brightline.example");
  await dialog.getByLabel("Address line 1").fill("500 Boylston St");
  await dialog.getByLabel("City").fill("Boston");
  await dialog.getByLabel("State / province / region").fill("MA");
  await dialog.getByLabel("Postal code").fill("2116");
  await dialog.getByLabel("Country").fill("US");
  await dialog.getByRole("button", { name: "Add contact" }).click();
  await expect(dialog).toBeHidden();
  await page.goto(`${url}/contacts`);
  await page
    .getByRole("link", { name: /Ada Okafor/ })
    .first()
    .click();
  await expect(page.getByRole("heading", { name: "Field history" })).toBeVisible();
  await expect(page.getByText("No field has changed since this contact was made.")).toBeVisible();

  await page.getByRole("button", { name: "Edit" }).click();
  await page.getByRole("dialog").getByLabel("Postal code").fill("02116");
  await page.getByRole("dialog").getByRole("button", { name: "Save" }).click();
  const put = page.getByRole("button", { name: "Put Postal code back to 2116" });
  await expect(put).toBeVisible();
  await snapWidths(page, "contact-field-history");

  await put.click();
  await expect(page.getByRole("button", { name: "Put Postal code back to 02116" })).toBeVisible();
  await expect(page.getByText("(undid a change)")).toBeVisible();
});

test("a person deletes a contact: the dialog says what goes and what stays, and the contact is gone from the list", async ({
  page,
}) => {
  const { url } = await signUp(page, { name: "Ines Moreau", company: "Moreau Logistics" });
  await page.goto(`${url}/contacts`);
  await page.getByRole("button", { name: "Add contact" }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("First name").fill("Tomas");
  await dialog.getByLabel("Last name").fill("Reyes");
  await dialog.getByLabel("Email").fill("tomas@reyes.example");
  await dialog.getByRole("button", { name: "Add contact" }).click();
  await expect(dialog).toBeHidden();
  await page.goto(`${url}/contacts`);
  await page
    .getByRole("link", { name: /Tomas Reyes/ })
    .first()
    .click();

  await page.getByRole("button", { name: "Delete…" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete Tomas Reyes?" });
  await expect(confirm.getByText(/Pieces already printed stay as the campaign’s record/)).toBeVisible();
  await confirm.getByRole("checkbox", { name: /Also suppress their email and address/ }).check();
  await snapWidths(page, "contact-delete");
  await confirm.getByRole("button", { name: "Delete contact" }).click();
  await expect(page).toHaveURL(/\/contacts$/);
  await expect(page.getByText("Tomas Reyes was deleted. Their email is suppressed.")).toBeVisible();
  await expect(page.getByRole("link", { name: /Tomas Reyes/ })).toHaveCount(0);
  await page.goto(`${url}/suppressions`);
  await expect(page.getByText("tomas@reyes.example")).toBeVisible();
});
