import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { type FakeLob, startFakeLob } from "@/test/fake-lob";
import { signLobWebhook, track } from "@/test/fake-lob-print";
import { demo } from "../support/demo";
import { E2E_LOB_FAKE_PORT } from "../support/env";
import { mailableMembers } from "../support/mailable";
import { signInAs, snap } from "../support/pages";

// Rendering, Lob's create and the lifecycle's steps: a minute can pass on a busy machine.
test.describe.configure({ timeout: 180_000 });

let lob: FakeLob;
test.beforeAll(async () => {
  lob = await startFakeLob(`test_${randomBytes(12).toString("hex")}`, E2E_LOB_FAKE_PORT);
});
test.afterAll(async () => {
  await lob?.close();
});

test("the owner connects Lob with a test key, a campaign prints through it once, and Lob's signed tracking reaches the piece; a forged event changes nothing", async ({
  page,
  request,
}) => {
  const { acme } = demo().workspaces;
  const base = `/w/${acme.id}`;
  await signInAs(page, acme.owner.email, acme.owner.password);

  // 1. Settings → Printing: the key is checked with Lob, the webhook URL shown.
  await page.goto(`${base}/settings/printing`);
  const card = page.locator("[aria-labelledby=lob-title]");
  const keyField = card.getByLabel("Lob secret API key");
  // A retry finds the first try's connection (to a fake that has since stopped): it starts again from a disconnected card.
  const disconnect = card.getByRole("button", { name: "Disconnect Lob" });
  await expect(keyField.or(disconnect)).toBeVisible();
  if (await disconnect.isVisible()) {
    await disconnect.click();
    await page.getByRole("dialog", { name: "Disconnect Lob?" }).getByRole("button", { name: "Disconnect" }).click();
  }
  await keyField.fill(lob.apiKey);
  const webhookSecret = `whsec_${randomBytes(12).toString("hex")}`;
  await card.getByLabel("Webhook signing secret").fill(webhookSecret);
  await card.getByRole("button", { name: "Connect Lob" }).click();
  await expect(card.getByText("Test mode: nothing is printed")).toBeVisible();
  const webhookUrl = (await card.locator("code", { hasText: "/api/webhooks/lob/" }).textContent())!.trim();
  expect(webhookUrl).toMatch(/\/api\/webhooks\/lob\/pvc_[0-9a-f]+$/);

  // 2. A Lob contract at the owner's Lob price, approved.
  const contractName = `Lob 6x9 ${randomBytes(2).toString("hex")}`;
  await page.getByRole("button", { name: /^Add (a|your first) contract$/ }).click();
  const add = page.getByRole("dialog", { name: "Add a printer contract" });
  await add.getByLabel("Name").fill(contractName);
  await add.getByRole("combobox", { name: "Printer" }).click();
  await page.getByRole("option", { name: /Lob/ }).click();
  await add.getByRole("combobox", { name: "Size" }).click();
  await page.getByRole("option", { name: "6 × 9 in postcard" }).click();
  await add.getByLabel("Price per piece on your Lob plan (USD)").fill("0.89");
  await add.getByRole("button", { name: "Propose contract" }).click();
  await expect(add).toBeHidden({ timeout: 30_000 });
  const row = page.getByRole("row", { name: new RegExp(contractName) });
  await expect(row).toContainText("Lob (test mode: nothing is printed)");
  await row.getByRole("button", { name: `Approve ${contractName}` }).click();
  await page
    .getByRole("dialog", { name: "Approve this contract?" })
    .getByRole("button", { name: "Approve contract" })
    .click();
  await expect(row).toContainText("approved");
  await snap(page, "printing-lob");

  // 3. A campaign printing through it: nobody by itself, no holdout; audited; live.
  await page.goto(`${base}/campaigns/new`);
  const name = `Lob pilot ${randomBytes(2).toString("hex")}`;
  await page.getByLabel(/^Name/).fill(name);
  await page.getByRole("combobox", { name: "Audience" }).click();
  await page.getByRole("option", { name: /Target accounts \(demo\)/ }).click();
  await page.getByRole("combobox", { name: "Fulfilment contract" }).click();
  await page.getByRole("option", { name: new RegExp(`${contractName}.*test mode`) }).click();
  await page.getByLabel("Holdout share of accounts").fill("0");
  await page.getByLabel("Pieces per contact").fill("");
  await page.getByRole("radio", { name: /^Nobody by itself/ }).check();
  await page.getByLabel("Destination URL").fill("https://www.acme.example/lob");
  await page.getByLabel("Headline").fill("{{firstName}}, printed by Lob");
  await page.getByLabel("Message").fill("Hi {{firstName}}, a test piece for {{company}}.");
  await page.getByRole("button", { name: "Create draft" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const campaignUrl = page.url();
  // "Audit again" when an audit of the audience (by another spec on the demo workspace) already answers for the campaign.
  await page
    .locator("#audit")
    .getByRole("button", { name: /^(Audit this campaign's audience|Audit again)$/ })
    .click();
  await expect(page.locator("#audit")).toContainText(/contacts mailable as postcards/, { timeout: 60_000 });
  await page.getByRole("button", { name: "Go live…" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Go live" }).click();
  await expect(page.getByText("live", { exact: true })).toBeVisible();
  await expect(page.getByText(/prints through a Lob test key/)).toBeVisible();

  // 4. One person sent by hand: their postcard is created at Lob once, with the print files' URLs.
  const [person] = await mailableMembers(page.request, acme.id, [...acme.contacts.inAudience].reverse(), 1);
  const send = page.getByRole("region", { name: "Send to one more person" });
  await send.getByRole("combobox", { name: "Contact" }).fill(person.name);
  await page
    .getByRole("option", { name: new RegExp(person.name) })
    .first()
    .click();
  await send.getByRole("button", { name: "Send" }).click();
  const pieces = page.locator("#pieces");
  await expect(async () => {
    await page.reload();
    // The page's own load (several seconds on a busy machine) first, then the piece's row, which the worker may not have made yet.
    await expect(pieces).toBeVisible({ timeout: 30_000 });
    await expect(pieces.getByRole("row", { name: new RegExp(person.name) })).toContainText("test: not really mailed", {
      timeout: 3000,
    });
  }).toPass({ timeout: 120_000 });
  const created = [...lob.print.objects.values()].filter(
    (o) => (o.metadata as Record<string, string>).workspace_id === acme.id,
  );
  expect(created).toHaveLength(1);
  const postcard = created[0];
  expect(postcard).toMatchObject({ size: "6x9", use_type: "marketing" });
  expect(
    lob.print.printRequests.filter(
      (r) => r.method === "POST" && r.idempotencyKey === (postcard.metadata as Record<string, string>).piece_id,
    ),
  ).toHaveLength(1);

  // 5. Lob's signed tracking events: delivered shows on the piece; a forged one is refused and changes nothing.
  const post = (body: string, headers: Record<string, string>) =>
    request.post(new URL(webhookUrl).pathname, {
      headers: { "Content-Type": "application/json", ...headers },
      data: body,
    });
  const signed = (event: object) => {
    const body = JSON.stringify(event);
    const timestamp = String(Date.now());
    return post(body, {
      "Lob-Signature-Timestamp": timestamp,
      "Lob-Signature": signLobWebhook(webhookSecret, body, timestamp),
    });
  };
  const forgedBody = JSON.stringify(track(lob.print, postcard.id as string, "Returned to Sender", new Date()));
  const forged = await post(forgedBody, {
    "Lob-Signature-Timestamp": String(Date.now()),
    "Lob-Signature": "0".repeat(64),
  });
  expect(forged.status()).toBe(401);
  for (const [scan, days] of [
    ["In Transit", 1],
    ["Delivered", 3],
  ] as const) {
    const res = await signed(
      track(lob.print, postcard.id as string, scan, new Date(Date.now() - (4 - days) * 86_400_000)),
    );
    expect(res.status(), scan).toBe(200);
  }
  await page.reload();
  await expect(pieces.getByRole("row", { name: new RegExp(person.name) })).toContainText("Delivered");
  // The forged return changed nothing: the contact's address is not marked undeliverable.
  await page.goto(`${base}/contacts/${person.id}`);
  await expect(page.getByText("Delivered").first()).toBeVisible();
  await expect(page.getByText(/returned to sender \(piece/)).toHaveCount(0);
  await snap(page, "contact-lob-delivered");
  await page.goto(campaignUrl);
});
