import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { generateCrm } from "@/test/crm-fakes/data";
import { startHubSpotFake } from "@/test/crm-fakes/hubspot-fake";
import { startSalesforceFake } from "@/test/crm-fakes/salesforce-fake";
import { demo } from "../support/demo";
import { E2E_HUBSPOT_FAKE_PORT } from "../support/env";
import { signInAs, signUp, snapWidths } from "../support/pages";

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

const TOKEN = "pat-na1-e2e-0000-1111";

test("Settings → CRM: connect HubSpot and Salesforce to local fakes, sync, follow the progress, read the history", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const hubspot = await startHubSpotFake(
    generateCrm("hubspot", { contacts: 3000 }),
    { token: TOKEN },
    E2E_HUBSPOT_FAKE_PORT,
  );
  const salesforce = await startSalesforceFake(generateCrm("salesforce", { contacts: 400 }), {
    clientId: "3MVG9-e2e-key",
    clientSecret: "e2e-secret-123456",
    batchSize: 200,
  });
  try {
    const { workspaceId } = await signUp(page, { name: "Rosa Diaz", company: "Brightline" });
    await page.goto(`/w/${workspaceId}/settings/crm`);
    await expect(page.getByRole("heading", { name: "No CRM connected" })).toBeVisible();
    await snapWidths(page, "crm-empty");
    await accessible(page, "crm-empty");

    // A wrong token: the sentence says what is wrong, nothing is saved.
    await page.getByRole("button", { name: "Connect HubSpot" }).click();
    const dialog = page.getByRole("dialog", { name: "Connect HubSpot" });
    await dialog.getByLabel("Access token").fill("pat-na1-not-the-token");
    await dialog.getByRole("button", { name: "Check and connect" }).click();
    await expect(dialog.getByText(/HubSpot did not accept this access token/)).toBeVisible();
    await snapWidths(page, "crm-hubspot-refused");
    await dialog.getByLabel("Access token").fill(TOKEN);
    await dialog.getByRole("button", { name: "Check and connect" }).click();
    await expect(dialog).toBeHidden();

    const card = page.getByRole("region", { name: "HubSpot portal 4711" });
    await expect(card.getByText("Connected", { exact: true })).toBeVisible();
    // The first sync runs with its progress bar, then lands in the history.
    await expect(card.getByRole("progressbar").or(card.getByText("Done", { exact: true }))).toBeVisible();
    await snapWidths(page, "crm-hubspot-syncing");
    await expect(card.getByRole("cell", { name: "Done" })).toBeVisible({ timeout: 60_000 });
    const row = card.getByRole("row").filter({ hasText: "Full" });
    await expect(row).toContainText("3,000 read");
    await expect(row).toContainText("300 warnings");
    await row.getByRole("button", { name: /Show details/ }).click();
    await expect(card.getByText(/no address; synced, but it cannot be mailed until it has one/).first()).toBeVisible();
    // The accounts figure of this sync's details (the card's own summary of the last sync may show the same figure).
    await expect(
      card.getByRole("region", { name: /^Details of the sync/ }).getByText("600 read", { exact: true }),
    ).toBeVisible();
    await snapWidths(page, "crm-hubspot-history");
    await accessible(page, "crm-hubspot-history");

    // A change in HubSpot, then Sync now: only what changed.
    hubspot.data.contacts[7].city = "Cambridge";
    hubspot.data.contacts[7].modifiedAt = Date.now();
    await card.getByRole("button", { name: "Sync now" }).click();
    await expect(card.getByRole("row").filter({ hasText: "Changes" }).getByText("Done")).toBeVisible({
      timeout: 30_000,
    });
    await expect(card.getByRole("row").filter({ hasText: "Changes" })).toContainText("1 updated");
    // The schedule.
    await card.getByRole("combobox", { name: "Scheduled sync" }).click();
    await page.getByRole("option", { name: "Every 6 hours" }).click();
    await expect(card.getByRole("combobox", { name: "Scheduled sync" })).toHaveValue("Every 6 hours");

    // Salesforce: a wrong secret, then the right one.
    await page.getByRole("button", { name: "Connect Salesforce" }).click();
    const sf = page.getByRole("dialog", { name: "Connect Salesforce" });
    await sf.getByLabel("My Domain URL").fill(salesforce.url);
    await sf.getByLabel("Consumer key").fill("3MVG9-e2e-key");
    await sf.getByLabel("Consumer secret").fill("wrong-secret-000");
    // Leads are a choice of the connection, off unless ticked.
    await expect(sf.getByRole("checkbox", { name: "Also sync Leads" })).not.toBeChecked();
    await sf.getByRole("button", { name: "Check and connect" }).click();
    await expect(sf.getByText(/did not accept this consumer key and secret together/)).toBeVisible();
    await sf.getByLabel("Consumer secret").fill("e2e-secret-123456");
    await sf.getByRole("button", { name: "Check and connect" }).click();
    await expect(sf).toBeHidden();
    const sfCard = page.getByRole("region", { name: /^Salesforce / });
    await expect(sfCard.getByRole("cell", { name: "Done" })).toBeVisible({ timeout: 60_000 });
    await expect(sfCard.getByRole("row").filter({ hasText: "Full" })).toContainText("400 read");
    await expect(sfCard.getByRole("switch", { name: "Sync Leads" })).not.toBeChecked();

    // Leads, switched on afterwards: the next sync reads them, counted apart from contacts.
    const lead = (n: number) => ({
      id: `00Q5e00000LeAd${n}AAA`,
      firstName: `Lia${n}`,
      lastName: "Leadbetter",
      email: `lia${n}@prospect.example`,
      title: null,
      phone: null,
      company: "Prospect Labs",
      street: `${n} Elm Street`,
      city: "Austin",
      region: "TX",
      postalCode: "78701",
      country: "US",
      optedOut: false,
      createdAt: Date.now(),
      modifiedAt: Date.now(),
    });
    salesforce.data.leads = [lead(1), lead(2)];
    await sfCard.getByRole("switch", { name: "Sync Leads" }).click();
    await expect(sfCard.getByRole("switch", { name: "Sync Leads" })).toBeChecked();
    await sfCard.getByRole("button", { name: "Sync now" }).click();
    const leadsRow = sfCard.getByRole("row").filter({ hasText: "Changes" }).first();
    await expect(leadsRow.getByText("Done")).toBeVisible({ timeout: 30_000 });
    await leadsRow.getByRole("button", { name: /Show details/ }).click();
    const leadsFigure = sfCard
      .getByRole("region", { name: /^Details of the sync/ })
      .getByText("Leads", { exact: true })
      .locator("..");
    await expect(leadsFigure).toContainText("2 read");
    await expect(leadsFigure).toContainText("2 new");
    await snapWidths(page, "crm-salesforce-leads");

    // Disconnect: the credentials go, the synced contacts stay.
    await card.getByRole("button", { name: "Disconnect" }).click();
    await page.getByRole("dialog", { name: "Disconnect HubSpot?" }).getByRole("button", { name: "Disconnect" }).click();
    await expect(card.getByText("Disconnected", { exact: true })).toBeVisible();
    await expect(card.getByRole("button", { name: "Connect again" })).toBeVisible();
    await snapWidths(page, "crm-after-disconnect");
    await page.goto(`/w/${workspaceId}/contacts`);
    // A person in both CRMs (the same email) is one contact, not two; the two leads are contacts too.
    const people = new Set(
      [...hubspot.data.contacts, ...salesforce.data.contacts, ...(salesforce.data.leads ?? [])].map((c) => c.email),
    ).size;
    expect(people).toBeLessThan(3400);
    await expect(page.getByText(`${people.toLocaleString("en-US")} in this workspace`)).toBeVisible();
  } finally {
    await hubspot.close();
    await salesforce.close();
  }
});

test("the demo's results say which outcomes came from the CRM, and its CRM page is truly empty", async ({ page }) => {
  const { acme } = demo().workspaces;
  await signInAs(page, acme.owner.email, acme.owner.password);
  await page.goto(`/w/${acme.id}/campaigns/${acme.campaigns.ended}/results`);
  await expect(page.getByRole("row", { name: /meeting booked/ }).first()).toContainText("From the CRM:");
  await page.goto(`/w/${acme.id}/settings/crm`);
  await expect(page.getByRole("heading", { name: "No CRM connected" })).toBeVisible();
});
