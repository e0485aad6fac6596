import { expect, type Page, test } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { signUp, snapWidths } from "../support/pages";

/** Contacts in seven countries, each with the problem a real CRM export has. */
const PEOPLE = [
  "First Name,Last Name,Email,Company,Address Line 1,Address Line 2,City,State,Postal Code,Country",
  "Ada,Okafor,ada@brightline.example,Brightline,500 Boylston St,,Boston,MA,2116,US",
  "Ben,Hartley,ben@brightline.example,Brightline,500 Boylston St,,Boston,MA,2116,US",
  "Chloe,Nakamura,chloe@northpeak.example,Northpeak,1 Market St,,San Francisco,CA,941051234,US",
  "Jonas,Becker,jonas@kestrel.example,Kestrel Werke,Friedrichstraße 68,,Berlin,,10117,DE",
  "Isla,McKenzie,isla@canary.example,Canary Wharf Group,1 Canada Square,,London,,E14 5AB,GB",
  "Camille,Durand,camille@rivage.example,Rivage,8 Rue de Londres,,Paris,,75009,FR",
  "Haruto,Sato,haruto@mori.example,Mori KK,6-10-1 Roppongi,,Minato-ku,Tokyo,106 6108,JP",
  'Lucas,Silva,lucas@faria.example,Faria,"Av. Brigadeiro Faria Lima, 3477",,São Paulo,Sao Paulo,04538 133,BR',
  "Olivia,Tremblay,olivia@maple.example,Maple,111 Richmond St W,,Toronto,ON,M5H 2G4,CA",
  "Omar,Haddad,omar@dunes.example,Dunes,PO Box 1234,,Austin,TX,78701,US",
  'Grace,Lee,grace@harbor.example,Harbor,1 Main St,"Attn: Accounts Payable Department, Building 7 East Wing, Mail Stop 4400-B",Seattle,WA,98101,US',
  "Wei,Zhang,wei@summit.example,Summit,,,Denver,CO,80202,US",
].join("\n");

async function axe(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  expect(
    violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
  ).toEqual([]);
}

test.setTimeout(180_000);

test("the mailability report of a CSV in seven countries, its reasons, the normalised addresses and fixes accepted one by one and in bulk", async ({
  page,
}) => {
  const { workspaceId } = await signUp(page, { name: "Mara Quist", company: "Quist Logistics" });
  const base = `/w/${workspaceId}`;
  await page.goto(`${base}/contacts/import`);
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: "crm-export.csv", mimeType: "text/csv", buffer: Buffer.from(PEOPLE) });
  await expect(page.getByText("12 rows · 10 columns")).toBeVisible();
  await page.getByLabel("Audience name").fill("CRM export");
  await page.getByRole("button", { name: "Import 12 rows" }).click();
  await expect(page.getByText("done", { exact: true })).toBeVisible({ timeout: 60_000 });

  // Before the run: the verifier, its price and what this audience would cost.
  await page.goto(`${base}/audits`);
  await expect(page.getByText("No audits yet")).toBeVisible();
  const verify = page.getByRole("checkbox", { name: /Also verify each address with the Sandbox verifier/ });
  await expect(verify).toBeVisible();
  await expect(
    page.getByText(
      "The sandbox verifies nothing: it answers only test addresses, and every other address stays “not verified”. 10 distinct addresses.",
    ),
  ).toBeVisible();
  await verify.check();
  await snapWidths(page, "audit-run");
  await axe(page);
  await page.getByRole("button", { name: "Run the audit" }).click();

  // The report.
  await expect(page.getByRole("heading", { level: 1, name: "CRM export" })).toBeVisible();
  await expect(page.getByText("Done", { exact: true }).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("link", { name: /^Fixable: [0-9.]+%, 5 contacts/ })).toBeVisible();
  // The sandbox looks nothing up: the report says the addresses are not verified.
  await expect(page.getByText(/Addresses sent to the sandbox verifier: 10 sent/)).toBeVisible();
  await expect(page.getByText("Not verified (sandbox)")).toBeVisible();
  const perCountry = page
    .locator(".mantine-Paper-root")
    .filter({ has: page.getByRole("heading", { name: "Per country" }) });
  for (const country of ["US", "DE", "GB", "FR", "JP", "BR", "CA"])
    await expect(perCountry.getByRole("cell", { name: country, exact: true })).toBeVisible();
  await expect(page.getByRole("img", { name: /at the same address \(informational\): 2/ })).toBeVisible();
  // Reasons that only inform are drawn apart from those that stop the mail, with a legend.
  await expect(page.getByText("Stops the mail", { exact: true })).toBeVisible();
  await expect(page.getByText("Informational: does not stop the mail", { exact: true })).toBeVisible();
  await snapWidths(page, "audit-report");
  await axe(page);

  // The problems table: informational reasons too, the normalised address beside the original.
  const problems = page.locator("#problems");
  const row = (name: string) => problems.getByRole("row").filter({ has: page.getByRole("link", { name }) });
  await expect(row("Omar Haddad")).toContainText("A PO box");
  await expect(row("Omar Haddad")).toContainText("Nothing needed");
  await expect(row("Ben Hartley")).toContainText("Another contact in the audience at the same address");
  // A region in another accepted form is not a problem; with a damaged postal code the fix writes both as the post does.
  await expect(row("Lucas Silva")).toContainText(
    "Av. Brigadeiro Faria Lima, 3477, São Paulo, Sao Paulo, 04538 133, BR",
  );
  await expect(row("Lucas Silva")).toContainText("Av. Brigadeiro Faria Lima, 3477, São Paulo, SP, 04538-133, BR");
  await expect(row("Grace Lee")).toContainText("Does not fit the format's address block");
  await expect(row("Grace Lee")).toContainText("Needs a person");
  await expect(row("Wei Zhang")).toContainText("No street address");
  // A ZIP a spreadsheet cut to four digits, in the state that confirms it: the normalised form says what it guessed.
  await expect(row("Ada Okafor")).toContainText("Postal code 2116 read as 02116 (a spreadsheet drops leading zeros).");

  // One fix by itself.
  await row("Haruto Sato").getByRole("button", { name: "Accept Postal code → 106-6108 for Haruto Sato" }).click();
  await expect(row("Haruto Sato")).toContainText("Fixed: Postal code → 106-6108");

  // Two selected, accepted on the server at once.
  await row("Chloe Nakamura").getByRole("checkbox", { name: "Select Chloe Nakamura" }).check();
  await row("Lucas Silva").getByRole("checkbox", { name: "Select Lucas Silva" }).check();
  await page.getByRole("button", { name: "Accept 2 selected fixes" }).click();
  await expect(page.getByText("2 contacts fixed. Run the audit again to see the new figures.")).toBeVisible();
  await expect(row("Chloe Nakamura")).toContainText("Fixed: Postal code → 94105-1234");
  await expect(row("Lucas Silva")).toContainText("Fixed: Region → SP");

  // Every fix of one reason: Ada and Ben's ZIP codes lost their leading zero.
  await page.getByRole("combobox", { name: "Reason" }).click();
  await page.getByRole("option", { name: "Postal code does not fit the country's format" }).click();
  await expect(problems.getByRole("row")).toHaveCount(6);
  await page.getByRole("button", { name: "Accept every fix for this reason" }).click();
  // The selection's notification may still be showing, with the same words: this one is the newest.
  await expect(page.getByText("2 contacts fixed. Run the audit again to see the new figures.").last()).toBeVisible();
  await expect(row("Ada Okafor")).toContainText("Fixed: Postal code → 02116");
  await snapWidths(page, "audit-fixes");

  // The contact page shows its mailability now.
  await page.getByRole("link", { name: "Ada Okafor" }).click();
  await expect(page.getByText("Mailability now")).toBeVisible();
  await expect(page.getByText("mailable", { exact: true }).first()).toBeVisible();

  // The next run shows the data improved.
  await page.goto(`${base}/audits`);
  await page.getByRole("button", { name: "Run the audit" }).click();
  await expect(page.getByText("Done", { exact: true }).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("link", { name: /^Fixable: [0-9.]+%, 0 contacts/ })).toBeVisible();
  await page.goto(`${base}/audits`);
  await expect(page.getByRole("row")).toHaveCount(3);
  await snapWidths(page, "audit-history");

  // Every reason documented.
  await page.goto("/docs/mailability");
  await expect(page.getByRole("heading", { level: 1, name: "Mailability: statuses and reasons" })).toBeVisible();
  await expect(page.getByRole("cell", { name: /^missing_unit/ })).toBeVisible();
});
