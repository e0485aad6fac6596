import AxeBuilder from "@axe-core/playwright";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { signUp, snapWidths } from "../support/pages";

/** A receiver on 127.0.0.1 that keeps what it was sent. */
async function receiver() {
  const got: { headers: Record<string, string>; body: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      got.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "content-type": "text/plain" }).end("thanks");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    got,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/direct-mail`,
    close: () => new Promise((r) => server.close(r)),
  };
}

test("a new owner adds a webhook endpoint, copies its secret once, sends a test event that verifies, and reads the delivery log", async ({
  page,
}) => {
  const hooks = await receiver();
  try {
    const { workspaceId } = await signUp(page, { name: "Wren Hale", company: "Hale Outfitters" });
    await page.goto(`/w/${workspaceId}/settings/webhooks`);
    await expect(page.getByRole("heading", { name: "Webhooks" })).toBeVisible();
    await expect(page.getByText("No webhook endpoints yet")).toBeVisible();
    await snapWidths(page, "settings-webhooks-empty");

    await page.getByRole("button", { name: "Add endpoint" }).click();
    const dialog = page.getByRole("dialog");
    // A new endpoint starts with every event type ticked; "Clear all" unticks them.
    await expect(dialog.getByRole("checkbox", { name: "piece.delivered" })).toBeChecked();
    await dialog.getByRole("button", { name: "Clear all" }).click();
    await expect(dialog.getByRole("checkbox", { name: "piece.delivered" })).not.toBeChecked();
    await expect(dialog.getByRole("button", { name: "Select all" })).toBeVisible();
    // Refused with a sentence, nothing saved: no event type chosen.
    await dialog.getByLabel(/^URL/).fill(hooks.url);
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    await expect(dialog.getByText("Choose at least one event type.")).toBeVisible();
    await dialog.getByRole("checkbox", { name: "entry_event.completed" }).check();
    await dialog.getByRole("checkbox", { name: "piece.mailed" }).check();
    await snapWidths(page, "settings-webhooks-add");
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    const secretBox = dialog.getByLabel("Signing secret");
    await expect(secretBox).toHaveText(/^whsec_[A-Za-z0-9+/=]{44}$/);
    const secret = (await secretBox.textContent())!;
    await snapWidths(page, "settings-webhooks-secret");
    await dialog.getByRole("button", { name: "Done" }).click();

    const row = page.getByRole("row", { name: new RegExp(hooks.url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) });
    await expect(row).toContainText("2 types");
    await expect(page.getByText(secret)).toHaveCount(0);

    await row.getByRole("button", { name: /More actions/ }).click();
    await page.getByRole("menuitem", { name: "Send test event" }).click();
    await expect(page.getByRole("heading", { name: /Deliveries to/ })).toBeVisible();
    // The worker delivers it; the log refreshes while it is pending.
    await expect(page.getByRole("cell", { name: /^webhook\.test webhook-id/ })).toBeVisible();
    await expect(page.getByText("succeeded")).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(/200 · \d+ ms/)).toBeVisible();
    expect(hooks.got).toHaveLength(1);
    const event = new Webhook(secret).verify(hooks.got[0].body, hooks.got[0].headers) as { type: string };
    expect(event.type).toBe("webhook.test");
    await snapWidths(page, "settings-webhooks-log");

    const { violations } = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .analyze();
    expect(
      violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`),
    ).toEqual([]);
  } finally {
    await hooks.close();
  }
});
