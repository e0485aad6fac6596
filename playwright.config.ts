import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { E2E_BASE_URL } from "./e2e/support/env";

/** Debian's Chromium where it is installed (CI, this project's machines); Playwright's own elsewhere. */
const systemChromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => fs.existsSync(p));
const reportDir = process.env.TEST_REPORT_DIR;
const onPostgres = Boolean(process.env.E2E_POSTGRES_URL);

const ALL_PROJECTS = [
  { name: "api", testDir: "e2e/api" },
  { name: "api-coverage", testDir: "e2e/api-coverage", dependencies: ["api"] },
  { name: "owner", testDir: "e2e/owner" },
  { name: "ops", testDir: "e2e/ops" },
  { name: "agents", testDir: "e2e/agents" },
  // Hostile inputs to every door (seeded, bounded; see e2e/fuzz/harness.ts to replay a failure).
  // One file at a time: each compares its workspace before and after.
  { name: "fuzz", testDir: "e2e/fuzz", workers: 1 },
  // After all the others, alone: what a heavy import does to the rest of the service.
  { name: "load", testDir: "e2e/load", dependencies: ["api", "api-coverage", "owner", "ops", "agents", "fuzz"] },
  // Last: no response of the whole run was a 5xx.
  {
    name: "server-errors",
    testDir: "e2e/final",
    dependencies: ["api", "api-coverage", "owner", "ops", "agents", "fuzz", "load"],
  },
];

/**
 * E2E_PROJECTS (a comma list) keeps only those projects, each still after the kept ones it waits
 * for: npm test runs part of the suite on PGlite (scripts/test-selection.mjs says which and why).
 */
const only = process.env.E2E_PROJECTS?.split(",").map((name) => name.trim());
const projects = only
  ? ALL_PROJECTS.filter((p) => only.includes(p.name)).map((p) => ({
      ...p,
      dependencies: p.dependencies?.filter((d) => only.includes(d)),
    }))
  : ALL_PROJECTS;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 2,
  // On CI a test that fails is run once more, and the summary names it as flaky (.ci/summary.mjs):
  // one browser test timing out on a loaded 2-core machine held back a whole submission. Locally a
  // failure stays a failure at once.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: reportDir
    ? [
        ["list"],
        ["json", { outputFile: path.join(reportDir, `playwright-${onPostgres ? "postgres" : "pglite"}.json`) }],
      ]
    : [["list"]],
  use: {
    baseURL: E2E_BASE_URL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: systemChromium,
      args: systemChromium
        ? [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
          ]
        : [],
    },
  },
  projects,
  webServer: {
    command: "./node_modules/.bin/tsx --conditions=react-server e2e/support/serve.ts",
    url: `${E2E_BASE_URL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
  },
});
