import { expect, test } from "@playwright/test";
import { signUp } from "../support/pages";

const csv = (n: number) =>
  ["First Name,Last Name,Email", ...Array.from({ length: n }, (_, i) => `P${i},Person,p${i}@example.test`)].join("\n");

test.setTimeout(120_000);

test("an upload never imported is discarded: by the wizard when another file is chosen or the page is left, and by its owner from the Imports page", async ({
  page,
}) => {
  const { workspaceId } = await signUp(page, { name: "Tomas Ribeiro", company: "Ribeiro Cargo" });
  const imports = `/w/${workspaceId}/imports`;
  const uploadsSection = page
    .locator(".mantine-Paper-root")
    .filter({ has: page.getByRole("heading", { name: /^Uploaded, never imported/ }) });

  // The wizard: another file replaces the first upload, and leaving the page discards the second.
  await page.goto(`/w/${workspaceId}/contacts/import`);
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: "first.csv", mimeType: "text/csv", buffer: Buffer.from(csv(10)) });
  await expect(page.getByText("10 rows · 3 columns")).toBeVisible();
  await page.getByRole("button", { name: "Choose another file" }).click();
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: "second.csv", mimeType: "text/csv", buffer: Buffer.from(csv(4)) });
  await expect(page.getByText("4 rows · 3 columns")).toBeVisible();
  await page.goto(imports);
  // The discard on leaving is a request of its own: the list has neither file once it has arrived.
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "Imports" })).toBeVisible();
    await expect(uploadsSection).toHaveCount(0);
  }).toPass({ timeout: 15_000 });
  await expect(page.getByText("No imports yet")).toBeVisible();

  // A file uploaded and left behind (as by a closed tab the browser never told us about).
  const uploaded = await page.request.post(`/api/imports?workspaceId=${workspaceId}`, {
    headers: { "X-File-Name": "contacts.csv", "Content-Type": "text/csv" },
    data: Buffer.from(csv(10)),
  });
  expect(uploaded.status()).toBe(201);
  const { importId } = (await uploaded.json()) as { importId: string };
  await page.reload();
  await expect(uploadsSection.getByRole("heading", { name: "Uploaded, never imported (1)" })).toBeVisible();
  await expect(uploadsSection.getByRole("row", { name: /contacts\.csv/ })).toContainText("10");

  // Its page says it was uploaded, not started, and shows no empty report.
  await uploadsSection.getByRole("link", { name: "contacts.csv" }).click();
  await expect(page).toHaveURL(`${imports}/${importId}`);
  await expect(page.getByText(/^10 rows · uploaded .+ by /)).toBeVisible();
  await expect(page.getByText(/· started /)).toHaveCount(0);
  await expect(
    page.getByText("This file was uploaded but its import was never started: no contact was written from it.", {
      exact: false,
    }),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: /^Refused rows/ })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: /^Warnings/ })).toHaveCount(0);

  await page.getByRole("button", { name: "Discard contacts.csv" }).click();
  const confirm = page.getByRole("dialog", { name: "Discard this upload?" });
  await expect(confirm).toContainText("contacts.csv (10 rows) was uploaded but never imported");
  await confirm.getByRole("button", { name: "Discard upload" }).click();
  await expect(page).toHaveURL(imports);
  await expect(uploadsSection).toHaveCount(0);
  expect((await page.request.get(`/api/imports/${importId}/refused?workspaceId=${workspaceId}`)).status()).toBe(404);
});
