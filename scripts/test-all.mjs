#!/usr/bin/env node
/**
 * `npm test`: every suite, each run whatever the others did, then one line "N passed, N failed".
 *
 *   1. the type check (tsc)                 -> typecheck.json
 *      and the house rules (dependency-cruiser: layers, no cycles) -> lint-deps.json
 *      and the formatter and linter (Biome)  -> lint.json
 *      and unused code (knip: files, exports, types, dependencies) -> lint-unused.json
 *   2. unit and integration on PGlite       -> vitest-pglite.json
 *   3. unit and integration on PostgreSQL   -> vitest-postgres.json    (with TEST_POSTGRES_URL; the files
 *                                              that open a database, see test-selection.mjs)
 *   4. the production build, once           -> build.json
 *   5. end-to-end on PGlite                 -> playwright-pglite.json  (with TEST_POSTGRES_URL, the projects
 *                                              where PGlite is what a person meets; else all)
 *   6. end-to-end on PostgreSQL             -> playwright-postgres.json (with TEST_POSTGRES_URL)
 *
 * One failing suite never skips another (a unit-test flake once hid 212 end-to-end tests); the
 * end-to-end suites need the build, and count as failed when it failed. Reports go to
 * TEST_REPORT_DIR (default .test-reports); the exit code is 1 when anything failed.
 * TEST_POSTGRES_URL names a PostgreSQL server on which each run creates and drops its own database.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { databaseTestFiles, PGLITE_E2E_PROJECTS } from "./test-selection.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const reportDir = path.resolve(process.env.TEST_REPORT_DIR ?? path.join(root, ".test-reports"));
fs.rmSync(reportDir, { recursive: true, force: true });
fs.mkdirSync(reportDir, { recursive: true });
const postgresUrl = process.env.TEST_POSTGRES_URL?.trim() || "";

const baseEnv = { ...process.env, TEST_REPORT_DIR: reportDir, NEXT_TELEMETRY_DISABLED: "1" };
delete baseEnv.DATABASE_URL;
delete baseEnv.E2E_POSTGRES_URL;

/** Reports of suites that exited with an error: the summary counts one failure there even if the report shows none. */
const exitedBadly = [];

/** Runs one step to its end, its output straight through; true when it exited 0. */
function step(title, command, args, env = {}, report = null) {
  console.log(`\n== ${title}`);
  const started = Date.now();
  const run = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...baseEnv, ...env } });
  const ok = run.status === 0;
  if (!ok && report) exitedBadly.push(report);
  console.log(
    `== ${title}: ${ok ? "passed" : `FAILED (${run.error?.message ?? `exit ${run.status ?? run.signal}`})`} in ${Math.round((Date.now() - started) / 1000)} s`,
  );
  return ok;
}

/** A step that is one check (the type check, the build) reports itself as one test. */
function writeStepReport(name, ok, note) {
  fs.writeFileSync(path.join(reportDir, name), `${JSON.stringify({ passed: ok ? 1 : 0, failed: ok ? 0 : 1, note })}\n`);
}

const expected = ["typecheck.json", "lint-deps.json", "lint.json", "lint-unused.json", "vitest-pglite.json"];
const npx = "npx";
const typecheck = step("type check", npx, ["tsc", "--noEmit"]);
writeStepReport(
  "typecheck.json",
  typecheck,
  typecheck ? "tsc --noEmit found no errors" : "tsc --noEmit found errors (above)",
);
const layered = step("house rules (npm run lint:deps)", "npm", ["run", "lint:deps"]);
writeStepReport(
  "lint-deps.json",
  layered,
  layered ? "no upward import and no cycle" : "dependency-cruiser found an upward import or a cycle (above)",
);

const linted = step("formatter and linter (npm run lint)", "npm", ["run", "lint"]);
writeStepReport(
  "lint.json",
  linted,
  linted ? "Biome found nothing to format or fix" : "Biome found code to format or fix (above; npm run format)",
);

const unused = step("unused code (npm run lint:unused)", "npm", ["run", "lint:unused"]);
writeStepReport(
  "lint-unused.json",
  unused,
  unused
    ? "knip found no unused file, export, type or dependency"
    : "knip found unused code (above; knip.ts says what it ignores and why)",
);

step("unit and integration suites on PGlite", npx, ["vitest", "run"], {}, "vitest-pglite.json");
if (postgresUrl) {
  expected.push("vitest-postgres.json");
  step(
    "unit and integration suites on PostgreSQL",
    npx,
    // The files that open a database; the others ran above and meet no database (test-selection.mjs).
    ["vitest", "run", ...databaseTestFiles(root)],
    { DATABASE_URL: postgresUrl },
    "vitest-postgres.json",
  );
}

expected.push("build.json");
const built = step("production build", "npm", ["run", "build"]);
writeStepReport(
  "build.json",
  built,
  built ? "next build succeeded" : "next build failed (above); the end-to-end suites could not run",
);

expected.push("playwright-pglite.json");
if (postgresUrl) expected.push("playwright-postgres.json");
if (built) {
  // With PostgreSQL as well, PGlite runs the projects where the embedded database is what a person
  // meets, and PostgreSQL runs them all (test-selection.mjs); alone, PGlite runs them all.
  step(
    "end-to-end suites on PGlite",
    npx,
    ["playwright", "test"],
    postgresUrl ? { E2E_PROJECTS: PGLITE_E2E_PROJECTS.join(",") } : {},
    "playwright-pglite.json",
  );
  if (postgresUrl)
    step(
      "end-to-end suites on PostgreSQL",
      npx,
      ["playwright", "test"],
      { E2E_POSTGRES_URL: postgresUrl },
      "playwright-postgres.json",
    );
} else {
  console.log("\n== end-to-end suites skipped: there is no build to run them against (each counts as failed)");
}

console.log("\n== summary");
const summary = spawnSync(process.execPath, [path.join(root, ".ci/summary.mjs"), reportDir, ...expected], {
  stdio: "inherit",
  env: { ...process.env, SUMMARY_EXITED_BADLY: exitedBadly.join(",") },
});
process.exit(summary.status === 0 ? 0 : 1);
