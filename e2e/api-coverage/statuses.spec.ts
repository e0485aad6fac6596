import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { observedFile } from "../support/api";

/**
 * Runs after the api project: every status that openapi.json documents for an operation must
 * have been produced by some request of the suite (the `default` 500 is the only exception).
 */
test("each status documented in openapi.json is produced by some test", async ({ request }) => {
  const doc = await (await request.get("/openapi.json")).json();
  const observed = new Set(
    fs
      .readFileSync(observedFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => {
        const { operation, status } = JSON.parse(line);
        return `${operation} ${status}`;
      }),
  );
  const missing: string[] = [];
  for (const methods of Object.values(doc.paths) as Record<
    string,
    { operationId: string; responses: Record<string, unknown> }
  >[]) {
    for (const op of Object.values(methods)) {
      for (const status of Object.keys(op.responses).filter((s) => s !== "default")) {
        if (!observed.has(`${op.operationId} ${status}`)) missing.push(`${op.operationId} ${status}`);
      }
    }
  }
  expect(missing).toEqual([]);
});
