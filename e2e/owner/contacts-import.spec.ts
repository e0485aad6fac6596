import { randomBytes } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { demo } from "../support/demo";
import { signInAs, snap } from "../support/pages";

/** A screenshot at 1366 px and one at 390 px wide (a phone), to be looked at. */
async function snapBoth(page: Page, name: string) {
  await page.setViewportSize({ width: 1366, height: 900 });
  await snap(page, `${name}-1366`);
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, `${name}-390`);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${name} fits a 390 px screen`).toBeLessThanOrEqual(392);
  await page.setViewportSize({ width: 1366, height: 900 });
}

const LEADS = [
  "given_name,Surname,E-mail addr,Organisation,Zip/Postal Code,Street Address,City,State/Province,Country,Notes",
  "Ada,Okafor,ada@brightline.example,Brightline,02116,500 Boylston St,Boston,MA,United States,met at booth",
  "Ben,Hartley,ben@brightline.example,Brightline,02116,500 Boylston St,Boston,MA,USA,",
  "Chloe,Nakamura,chloe@northpeak.example,Northpeak,94105,1 Market St,San Francisco,CA,U.S.,",
  ',,,=HYPERLINK("http://evil.example"),,,,,,no name and no email',
  "Jonas,Becker,jonas@kestrel.example,Kestrel Werke,10117,Friedrichstraße 68,Berlin,,Deutschland,",
  "Isla,McKenzie,isla@gmail.com,,E14 5AB,1 Canada Square,London,,UK,",
  "Ben,Hartley,BEN@brightline.example,Brightline,02116,500 Boylston St,Boston,MA,USA,repeat",
  ",,,,,,,,,",
  "Priya,Raman,priya@northpeak.example,Northpeak,94105,1 Market St,San Francisco,CA,Narnia,",
  ",,not-an-email,Nowhere Inc,,,,,,",
].join("\n");

test.setTimeout(180_000);

test("a brand-new person signs up, imports a CSV with bad rows, fixes the mapping, reads the report and finds the contacts and the audience", async ({
  page,
}) => {
  const email = `importer.${randomBytes(4).toString("hex")}@example.test`;
  await page.goto("/sign-up");
  await page.getByLabel("Your name").fill("Rosa Jiménez");
  await page.getByLabel("Work email").fill(email);
  await page.getByLabel(/^Password/).fill("a long passphrase");
  await page.getByLabel("Company or team").fill("Jiménez Freight");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Jiménez Freight" })).toBeVisible();

  // The overview sends a new workspace to its people first.
  await expect(page.getByRole("heading", { name: "Start with your people" })).toBeVisible();
  await snapBoth(page, "overview-empty");
  await page.getByRole("link", { name: "Contacts", exact: true }).click();
  await expect(page.getByRole("heading", { name: "No contacts yet" })).toBeVisible();
  await snapBoth(page, "contacts-empty");
  await page.getByRole("link", { name: "Import CSV" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Import contacts from CSV" })).toBeVisible();
  await snapBoth(page, "import-dropzone");

  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: "booth-leads.csv", mimeType: "text/csv", buffer: Buffer.from(LEADS) });
  await expect(page.getByText("9 rows · 10 columns")).toBeVisible();
  // 9 rows: the blank line is not a row (it keeps its number). "E-mail addr" is not a header we know: it would be kept as a
  // custom field (nothing of a file is dropped unless someone says so); the person maps it to Email.
  const emailField = page.getByRole("combobox", { name: "Field for the column E-mail addr" });
  await expect(emailField).toHaveValue("Custom field “E-mail addr”");
  await expect(page.getByRole("combobox", { name: "Field for the column given_name" })).toHaveValue("First name");
  await expect(page.getByRole("combobox", { name: "Field for the column Organisation" })).toHaveValue(
    "Company (finds or makes the account)",
  );
  await expect(page.getByRole("combobox", { name: "Field for the column Zip/Postal Code" })).toHaveValue("Postal code");
  // Mapping two columns to one field is refused before anything is imported.
  await page.getByRole("combobox", { name: "Field for the column Notes" }).click();
  await page.getByRole("option", { name: "City", exact: true }).click();
  await expect(page.getByText(/both fill city/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Import 9 rows" })).toBeDisabled();
  await snapBoth(page, "import-mapping-problem");
  await page.getByRole("combobox", { name: "Field for the column Notes" }).click();
  await page.getByRole("option", { name: "Custom field “Notes”" }).click();
  await emailField.click();
  await page.getByRole("option", { name: "Email", exact: true }).click();
  await expect(emailField).toHaveValue("Email");
  await page.getByLabel("Audience name").fill("Booth leads");
  await snapBoth(page, "import-mapping");
  await page.getByRole("button", { name: "Import 9 rows" }).click();

  // The report: created, the repeated row skipped, the refused rows with their numbers, the warning.
  await expect(page.getByRole("heading", { level: 1, name: "booth-leads.csv" })).toBeVisible();
  await expect(page.getByText("done", { exact: true })).toBeVisible({ timeout: 30_000 });
  const stat = (label: string) =>
    page
      .locator(".mantine-Paper-root")
      .filter({ has: page.getByText(label, { exact: true }) })
      .first();
  await expect(stat("Created")).toContainText("6");
  await expect(stat("Skipped")).toContainText("1 repeated in the file");
  await expect(stat("Refused")).toContainText("2");
  const refused = page
    .locator(".mantine-Paper-root")
    .filter({ has: page.getByRole("heading", { name: "Refused rows (2)" }) });
  await expect(refused.getByRole("row", { name: /^5 whole row no name and no email/ })).toBeVisible();
  await expect(
    refused.getByRole("row", { name: /^11 E-mail addr no name, and “not-an-email” is not an email address/ }),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "Warnings (1)" })).toBeVisible();
  await expect(page.getByText(/“Narnia” is not a country we know/)).toBeVisible();
  // Every column with what it became, and the repeated row with the contact it joined.
  const columns = page
    .locator(".mantine-Paper-root")
    .filter({ has: page.getByRole("heading", { name: "Columns (10)" }) });
  await expect(columns.getByRole("row", { name: /^Notes Custom field “Notes”/ })).toBeVisible();
  await expect(columns.getByRole("row", { name: /^E-mail addr Email/ })).toBeVisible();
  const merged = page
    .locator(".mantine-Paper-root")
    .filter({ has: page.getByRole("heading", { name: "Rows merged as duplicates (1)" }) });
  await expect(merged.getByRole("row", { name: /^8 Ben Hartley/ })).toBeVisible();
  await snapBoth(page, "import-report");

  // The refused rows download as CSV, the formula escaped.
  const download = await page.request.get(
    (await page.getByRole("link", { name: "Download refused rows (CSV)" }).getAttribute("href"))!,
  );
  expect(download.status()).toBe(200);
  const text = await download.text();
  expect(text).toContain("'=HYPERLINK");
  expect(text.split("\r\n")[0]).toContain("given_name,Surname,E-mail addr,Organisation");
  expect(text).toContain(",5,,no name and no email");

  // The audience holds the written contacts; the contacts page finds them by company and by name.
  await page.getByRole("link", { name: "Open the audience “Booth leads”" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Booth leads" })).toBeVisible();
  const stats = page.locator(".mantine-SimpleGrid-root").first();
  await expect(stats).toContainText("Contacts6");
  await expect(stats).toContainText("Accounts4");
  await snapBoth(page, "audience-detail");

  await page.getByRole("link", { name: "Contacts", exact: true }).click();
  await page.getByLabel("Search").fill("northp");
  await expect(page.getByRole("link", { name: "Chloe Nakamura" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Priya Raman" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Ada Okafor" })).toHaveCount(0);
  await expect(page).toHaveURL(/search=northp/);
  await snapBoth(page, "contacts-search");
  await page.getByLabel("Search").fill("");
  await expect(page.getByText(/1–6 of 6/)).toBeVisible();

  // gmail.com makes no account: Isla has one of her own, named after her (the second link in her row).
  await expect(
    page.getByRole("row", { name: /Isla McKenzie/ }).getByRole("link", { name: "Isla McKenzie" }),
  ).toHaveCount(2);
  await page.getByRole("link", { name: "Isla McKenzie" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Isla McKenzie" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Isla McKenzie" })).toBeVisible();
  await expect(page.getByText("Booth leads")).toBeVisible();
  await snapBoth(page, "contact-detail");
  await page.getByRole("button", { name: "Edit" }).click();
  await page.getByLabel("Job title").fill("Head of Growth");
  await page.getByLabel("Country").fill("Atlantis");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(/“Atlantis” is not a country we know/).first()).toBeVisible();
  await page.getByLabel("Country").fill("United Kingdom");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByText("Head of Growth").first()).toBeVisible();

  // Suppress her: she shows as suppressed, and the Mailable filter leaves her out.
  await page.getByRole("button", { name: "Suppress…" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Suppress" }).click();
  await expect(page.getByText("This contact will not be mailed")).toBeVisible();
  await page.getByRole("link", { name: "Suppressions" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Suppressions" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "Contact Isla McKenzie" })).toBeVisible();
  await snapBoth(page, "suppressions");

  await page.getByRole("link", { name: "Accounts", exact: true }).click();
  await expect(page.getByRole("link", { name: "Brightline" })).toBeVisible();
  await snapBoth(page, "accounts");
  await page.getByRole("link", { name: "Brightline" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Brightline" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Ada Okafor" })).toBeVisible();
  await snapBoth(page, "account-detail");

  await page.getByRole("link", { name: "Imports", exact: true }).click();
  await expect(page.getByRole("link", { name: "booth-leads.csv" })).toBeVisible();
  await snapBoth(page, "imports-list");
});

test("the demo shows its import, audiences, accounts and suppressions", async ({ page }) => {
  const { acme } = demo().workspaces;
  await signInAs(page, acme.owner.email, acme.owner.password);
  await page.goto(`/w/${acme.id}/imports/${acme.imports!.tradeShow}`);
  await expect(page.getByRole("heading", { level: 1, name: "trade-show-leads-demo.csv" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Refused rows (1)" })).toBeVisible();
  await page.goto(`/w/${acme.id}/audiences`);
  await expect(page.getByRole("link", { name: "Trade show leads (demo)" })).toBeVisible();
  await expect(page.getByRole("link", { name: "UK leads (demo)" })).toBeVisible();
  await snapBoth(page, "audiences-demo");
  await page.goto(`/w/${acme.id}/contacts?suppressed=yes`);
  await expect(page.getByRole("link", { name: "Mia Collins" })).toBeVisible();
  await snapBoth(page, "contacts-demo-suppressed");
});
