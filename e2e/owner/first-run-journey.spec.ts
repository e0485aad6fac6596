import { randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { signUp, snapWidths } from "../support/pages";

// The whole product from sign-up, with screenshots at two widths and accessibility scans along the way: on a loaded
// 2-core machine the journey took 5.2 minutes on 2026-11-27 (PostgreSQL), no single step slower than 7 s.
test.setTimeout(480_000);

/** Six people at six companies in the US: six accounts, so a 20% holdout keeps one back. */
const PEOPLE = [
  "First name,Last name,Email,Company,Address,City,State,ZIP,Country",
  "Ada,Okafor,ada@brightline.example,Brightline,500 Boylston St,Boston,MA,2116,US",
  "Chloe,Nakamura,chloe@northpeak.example,Northpeak,1 Market St,San Francisco,CA,94105,US",
  "Diego,Alvarez,diego@harborline.example,Harborline,1200 Harbor Way,Oakland,CA,94607,US",
  "Elena,Petrova,elena@quartzworks.example,Quartzworks,233 S Wacker Dr,Chicago,IL,60606,US",
  "Farah,Haddad,farah@tidewater.example,Tidewater,1 Dock St,Seattle,WA,98101,US",
  "Gus,Lindqvist,gus@pinegrove.example,Pinegrove,77 Pine St,Portland,OR,97204,US",
].join("\n");

/** No serious or critical accessibility violation (WCAG 2 A and AA rules of axe-core). */
async function accessible(page: Page, name: string) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect
    .soft(
      bad.map(
        (v) =>
          `${v.id} (${v.impact}): ${v.help} at ${v.nodes
            .map((n) => n.target.join(" "))
            .slice(0, 3)
            .join(" | ")}`,
      ),
      `${name}: accessibility`,
    )
    .toEqual([]);
}

/** Every page of the journey: a laptop and a phone screenshot, nothing wider than the screen, and axe-core. */
async function look(page: Page, name: string) {
  await snapWidths(page, `journey-${name}`);
  await accessible(page, name);
}

test("from nothing to a printed piece: sign up, import, audit and fix, brand kit, design, drafts, paid plan, printer, go live, API key, entry event, proof", async ({
  page,
  request,
}) => {
  // The front door, signed out.
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Direct mail that proves its lift" })).toBeVisible();
  await expect(page.getByRole("img", { name: /The front of a 6 by 9 inch postcard/ })).toBeVisible();
  expect(
    await page
      .getByRole("img", { name: /The front of a 6 by 9 inch postcard/ })
      .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
  ).toBe(true);
  for (const [name, href] of [
    ["Open the calculators", "/tools"],
    ["API reference", "/docs/api"],
    ["llms.txt", "/llms.txt"],
  ] as const) {
    await expect(page.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
  }
  await look(page, "landing");

  const { workspaceId } = await signUp(page, { name: "Noor Rahman", company: "Rahman Analytics" });
  const base = `/w/${workspaceId}`;
  await expect(page.getByRole("heading", { name: "Start with your people" })).toBeVisible();
  await expect(page.getByRole("region", { name: "From here to a live programme" })).toContainText("0 of 9 done");
  await look(page, "overview-new");

  // 1. People in.
  await page.getByRole("link", { name: "Import contacts from CSV" }).click();
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: "customers.csv", mimeType: "text/csv", buffer: Buffer.from(PEOPLE) });
  await expect(page.getByText("6 rows · 9 columns")).toBeVisible();
  await page.getByLabel("Audience name").fill("Customers");
  await look(page, "import-mapping");
  await page.getByRole("button", { name: "Import 6 rows" }).click();
  await expect(page.getByText("done", { exact: true })).toBeVisible({ timeout: 60_000 });
  await look(page, "import-report");
  await page.goto(`${base}/contacts`);
  await expect(page.getByRole("link", { name: "Ada Okafor" })).toBeVisible();
  const contactIds = await page
    .locator(`a[href^="${base}/contacts/ctc_"]`)
    .evaluateAll((as) => as.map((a) => a.getAttribute("href")!.split("/").pop()!));
  expect(new Set(contactIds).size).toBe(6);
  await look(page, "contacts");

  // 2. The mailability audit of the imported audience: one ZIP code lost its leading zero in a spreadsheet.
  await page.goto(`${base}/audits`);
  await expect(page.getByText("No audits yet")).toBeVisible();
  await page.getByRole("button", { name: "Run the audit" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Customers" })).toBeVisible();
  await expect(page.getByRole("link", { name: /^Fixable: [0-9.]+%, 1 contact;/ })).toBeVisible();
  await look(page, "audit-report");
  // The problems as CSV, for fixing in the CRM.
  const csv = await page.request.get((await page.getByRole("link", { name: "Export CSV" }).getAttribute("href"))!);
  expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  const lines = (await csv.text())
    .replace(/^\uFEFF/, "")
    .trim()
    .split(/\r?\n/);
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain("Ada,Okafor,ada@brightline.example,Brightline,500 Boylston St,,Boston,MA,2116,US,fixable");
  expect(lines[1]).toMatch(/invalid_postal_code,postalCode: 02116,"500 Boylston St, Boston, MA, 02116, US"$/);
  await page.getByRole("button", { name: "Accept Postal code → 02116 for Ada Okafor" }).click();
  await expect(page.getByText("Fixed: Postal code → 02116")).toBeVisible();
  await page.goto(`${base}/audits`);
  await page.getByRole("button", { name: "Run the audit" }).click();
  await expect(page.getByRole("link", { name: /^Fixable: [0-9.]+%, 0 contacts/ })).toBeVisible();
  await expect(page.getByText("Nothing to fix")).toBeVisible();
  await look(page, "audit-after-fix");

  // 3. Brand kit.
  await page.goto(`${base}/settings/brand`);
  await expect(page.getByLabel("Company name")).toHaveValue("Rahman Analytics");
  await page.getByLabel("Primary").fill("#3b2f9e");
  await page.getByLabel("Street address").fill("500 Market Street");
  await page.getByLabel("City").fill("San Francisco");
  await page.getByLabel("Postal code").fill("94105");
  await page.getByLabel("Country").fill("US");
  await page.getByLabel("Sign-off").fill("Noor, Rahman Analytics");
  await page.getByRole("button", { name: "Save brand kit" }).click();
  await expect(page.getByText("Brand kit saved")).toBeVisible();
  await look(page, "brand-kit");

  // 4. A postcard design.
  await page.goto(`${base}/designs`);
  await page.getByRole("link", { name: "Create the first design" }).click();
  await page.getByLabel("Name").fill("Welcome postcard");
  await page.getByLabel("Headline").fill("{{firstName|Hello}}, a note for {{company}}");
  await expect(page.getByRole("img", { name: /^Front for / })).toBeVisible({ timeout: 30_000 });
  await look(page, "design-new");
  await page.getByRole("button", { name: "Create design" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Welcome postcard" })).toBeVisible();

  // 5. A campaign with the design, and its drafts.
  await page.goto(`${base}/campaigns/new`);
  const campaign = `Welcome ${randomBytes(2).toString("hex")}`;
  await page.getByLabel(/^Name/).fill(campaign);
  await page.getByRole("combobox", { name: "Audience" }).click();
  await page.getByRole("option", { name: /Customers/ }).click();
  // The workspace's only postcard design is already chosen.
  await expect(page.getByRole("combobox", { name: "Design" })).toHaveValue(/^Welcome postcard/);
  await page.getByLabel("Destination URL").fill("https://www.rahman.example/welcome");
  // Who gets it: the customer's own server sends each sign-up as an entry event (step 8).
  await page.getByRole("radio", { name: /^Nobody by itself/ }).check();
  await look(page, "campaign-new");
  await page.getByRole("button", { name: "Create draft" }).click();
  await expect(page.getByRole("heading", { level: 1, name: campaign })).toBeVisible();
  const campaignUrl = page.url();
  const campaignId = campaignUrl.split("/").pop()!;
  await page.getByRole("button", { name: "Generate drafts" }).click();
  await expect(page.getByText("Drafts ready", { exact: true })).toBeVisible({ timeout: 90_000 });

  // Readiness: the audience's own audit (step 2, after the fix) counts for the campaign, so it is not run again;
  // the plan, the printer and the budget still block, each with its fix; the button says why.
  const readiness = page.getByRole("region", { name: "Ready to go live?" });
  await expect(readiness).toContainText("7 of 9 done");
  await expect(readiness).toContainText(/0% unmailable at the audience's audit of \d{4}-\d\d-\d\d\./);
  await expect(page.locator("#audit")).toContainText("The audience's own audit");
  await expect(readiness).toContainText("6 drafts ready.");
  await expect(readiness.getByRole("link", { name: "Choose the paid plan" })).toHaveAttribute(
    "href",
    `${base}/settings/plan`,
  );
  await expect(readiness.getByRole("link", { name: "Add or approve a printer" })).toHaveAttribute(
    "href",
    `${base}/settings/printing`,
  );
  await expect(page.getByRole("button", { name: "Go live…" })).toBeDisabled();
  await look(page, "campaign-not-ready");

  // 6. The paid plan and a sandbox printer.
  await readiness.getByRole("link", { name: "Choose the paid plan" }).click();
  await page
    .locator(".mantine-Card-root")
    .filter({ has: page.getByRole("heading", { name: "Paid plan", exact: true }) })
    .getByRole("button", { name: "Choose the paid plan" })
    .click();
  await page
    .getByRole("dialog", { name: "Choose the paid plan?" })
    .getByRole("button", { name: "Choose the paid plan" })
    .click();
  await expect(
    page
      .locator(".mantine-Card-root")
      .filter({ has: page.getByRole("heading", { name: "Paid plan", exact: true }) })
      .getByText("Current plan"),
  ).toBeVisible();
  await look(page, "plan-paid");
  await page.getByRole("tab", { name: "Printing" }).click();
  await page.getByRole("button", { name: "Add your first contract" }).click();
  const add = page.getByRole("dialog", { name: "Add a printer contract" });
  await add.getByLabel("Name").fill("Sandbox 6x9 postcards");
  await add.getByRole("combobox", { name: "Size" }).click();
  await page.getByRole("option", { name: "6 × 9 in postcard" }).click();
  await add.getByRole("button", { name: "Propose contract" }).click();
  const row = page.getByRole("row", { name: /Sandbox 6x9 postcards/ });
  await row.getByRole("button", { name: "Approve Sandbox 6x9 postcards" }).click();
  await page
    .getByRole("dialog", { name: "Approve this contract?" })
    .getByRole("button", { name: "Approve contract" })
    .click();
  await expect(row).toContainText("approved");
  await look(page, "printing-approved");

  // 7. The campaign takes the printer and a budget, and goes live.
  await page.goto(`${campaignUrl}/edit`);
  await page.getByRole("combobox", { name: "Fulfilment contract" }).click();
  await page.getByRole("option", { name: /Sandbox 6x9 postcards/ }).click();
  await expect(page.getByRole("combobox", { name: "Fulfilment contract" })).toHaveValue(/^Sandbox 6x9 postcards/);
  await page.getByLabel("Budget").fill("100");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page).toHaveURL(campaignUrl);
  // Approving a printer for the US, where every contact is, leaves the audience's audit standing (nothing it judged
  // changed). The campaign's own run, for 6 × 9 postcards through its printer, is there for a closer look.
  const audit = page.locator("#audit");
  await expect(audit).toContainText("The audience's own audit");
  await expect(audit).not.toContainText("Out of date");
  await audit.getByRole("button", { name: "Audit again" }).click();
  // Once the campaign's own run is done, it answers for the campaign in place of the audience's.
  await expect(audit).not.toContainText("The audience's own audit", { timeout: 30_000 });
  // The person stays on the campaign while it runs; the result's link opens the report.
  await expect(audit).toContainText(/contacts mailable as postcards/, { timeout: 30_000 });
  await expect(page).toHaveURL(campaignUrl);
  await audit.getByRole("link", { name: /^Audit of / }).click();
  await expect(page.getByRole("heading", { level: 1, name: /for Welcome/ })).toBeVisible();
  await expect(
    page.getByText(
      "Judged for the campaign's postcards: addresses measured against a 6 × 9 in postcard's address block",
    ),
  ).toBeVisible();
  await look(page, "campaign-audit");
  await page.goto(campaignUrl);
  await expect(readiness).toContainText("Ready");
  await look(page, "campaign-ready");
  await page.getByRole("button", { name: "Go live…" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Go live" }).click();
  await expect(page.getByText("live", { exact: true })).toBeVisible();

  // 8. An API key, and entry events posted with fetch as a customer's server would.
  await page.goto(`${base}/settings/api-keys`);
  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(/^Name/).fill("Signup webhook");
  await dialog.getByRole("button", { name: "Create key" }).click();
  const secret = (await dialog.getByLabel("New API key").textContent())!;
  await dialog.getByRole("button", { name: "Done" }).click();
  await look(page, "api-keys");
  const posted = await page.evaluate(
    async ({ secret, campaignId, contactIds }) =>
      Promise.all(
        contactIds.map(async (contactId) => {
          const res = await fetch(`/api/v1/campaigns/${campaignId}/events`, {
            method: "POST",
            headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" },
            body: JSON.stringify({ contactId, idempotencyKey: `welcome-${contactId}` }),
          });
          return { status: res.status, body: (await res.json()) as { eventId: string } };
        }),
      ),
    { secret, campaignId, contactIds },
  );
  expect(posted.map((p) => p.status)).toEqual(Array(6).fill(202));

  // 9. Every event settles: one account held out, the others mailed; the printed piece's proof opens.
  const statuses = async () =>
    Promise.all(
      posted.map(
        async (p) =>
          (
            await (
              await request.get(`/api/v1/campaigns/${campaignId}/events/${p.body.eventId}`, {
                headers: { Authorization: `Bearer ${secret}` },
              })
            ).json()
          ).status as string,
      ),
    );
  await expect
    .poll(async () => (await statuses()).filter((s) => s === "completed" || s === "held_out").length, {
      timeout: 90_000,
    })
    .toBe(6);
  expect((await statuses()).filter((s) => s === "held_out")).toHaveLength(1);
  await page.goto(campaignUrl);
  // The sandbox mails nobody: its five pieces are simulated, never counted as mailed.
  const mailed = page.getByRole("link", { name: /^Mailed: 0.*5 more went through the sandbox/ });
  await expect(mailed).toBeVisible();
  await expect(page.getByRole("link", { name: /^Held out: 1 account, 1 of their contacts/ })).toBeVisible();
  await look(page, "campaign-live");
  const proofHref = await page.locator('a[href^="/api/pieces/"]').first().getAttribute("href");
  const proof = await page.request.get(proofHref!);
  expect(proof.status()).toBe(200);
  expect(proof.headers()["content-type"]).toBe("application/pdf");
  expect((await proof.body()).subarray(0, 5).toString()).toBe("%PDF-");

  // Every step of the first run is done, so the overview no longer shows the checklist.
  await page.goto(base);
  await expect(page.getByRole("link", { name: "Pieces mailed: 0" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Simulated (sandbox or test key, not mailed): 5" })).toBeVisible();
  await expect(page.getByRole("region", { name: "From here to a live programme" })).toHaveCount(0);
  await look(page, "overview-after");
});
