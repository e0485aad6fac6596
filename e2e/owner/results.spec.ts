import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { demo } from "../support/demo";
import { signInAs, snap } from "../support/pages";

test("the ended demo campaign's results: arms, rates by arm, intervals, verdicts, and an outcome import", async ({
  page,
}) => {
  const { acme } = demo().workspaces;
  await signInAs(page, acme.owner.email, acme.owner.password);
  await page.goto(`/w/${acme.id}/campaigns/${acme.campaigns.ended}`);
  await page.getByRole("link", { name: "Results" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Results" })).toBeVisible();
  await expect(page.getByText("800", { exact: true })).toBeVisible();
  await expect(page.getByText("200", { exact: true })).toBeVisible();
  await expect(page.getByText("Arms fit the plan")).toBeVisible();
  // The lift table comes first; the cost table below it has a row per outcome kind too.
  const meetings = page.getByRole("row", { name: /meeting booked/ }).first();
  await expect(meetings).toContainText("Lift");
  await expect(meetings).toContainText(/pts \(/);
  await expect(page.getByRole("row", { name: /^reply/ }).first()).toContainText("Not measurable");
  // What each incremental meeting cost: the spend over the meetings the mail added, with its interval.
  await expect(page.getByText("What each incremental outcome cost")).toBeVisible();
  await expect(page.getByRole("row", { name: /meeting booked/ }).nth(1)).toContainText(/\$[\d.,]+95% interval/);
  await expect(page.getByText("Incremental pipeline")).toBeVisible();
  await expect(page.locator(".recharts-surface").first()).toBeVisible();
  await snap(page, "results");

  const csv = path.join(os.tmpdir(), `outcomes-${Date.now()}.csv`);
  fs.writeFileSync(
    csv,
    "account,kind,at,amount,external_id\nbrightlinelogistics.com,meeting_booked,2026-10-01,,m-1\nnobody.example,reply,2026-10-01,,\n",
  );
  await page.getByRole("button", { name: "Import outcomes…" }).click();
  await page.getByRole("dialog").locator('input[type="file"]').setInputFiles(csv);
  await page.getByRole("dialog").getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("dialog")).toContainText("Nothing was imported: 1 row has an error");
  await expect(page.getByRole("dialog")).toContainText("Row 2: No account nobody.example in this workspace.");
  await snap(page, "results-import-refused");

  // The file fixed: the good row is recorded, once.
  const fixed = path.join(os.tmpdir(), `outcomes-fixed-${Date.now()}.csv`);
  fs.writeFileSync(
    fixed,
    "account,kind,at,amount,external_id\nbrightlinelogistics.com,meeting_booked,2026-10-01,,m-1\n",
  );
  await page.getByRole("dialog").locator('input[type="file"]').setInputFiles(fixed);
  await page.getByRole("dialog").getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("dialog")).toContainText("1 recorded, 0 already there");
});
