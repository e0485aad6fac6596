import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { serverErrorLog } from "../support/env";

/**
 * Runs after every other project: no request of the whole run was answered with a 5xx. The server
 * under test writes each one it answers to SERVER_ERROR_LOG (scripts/serve.ts); its own log has the cause.
 */
test("no response of the run was a server error", async ({ request }) => {
  const lines = fs.existsSync(serverErrorLog)
    ? fs.readFileSync(serverErrorLog, "utf8").trim().split("\n").filter(Boolean)
    : [];
  expect(lines, `5xx answers (the server's output has their causes):\n${lines.join("\n")}`).toEqual([]);
  expect((await request.get("/api/health")).status()).toBe(200);
});
