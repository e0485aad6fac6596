// Sums the JSON reports of every suite into the one closing line CI reads: "N passed, N failed".
// Usage: node .ci/summary.mjs <report dir> [report names...]; the names default to every suite.
// A suite whose report is missing (it crashed before reporting, or could not run) counts as one
// failure; a suite whose report cannot be read counts as one failure too. The type check and the
// build report themselves as one check each ({ passed, failed }).
import fs from "node:fs";
import path from "node:path";

const [dir, ...names] = process.argv.slice(2);
const expected = names.length
  ? names
  : [
      "typecheck.json",
      "lint-deps.json",
      "lint.json",
      "lint-unused.json",
      "vitest-pglite.json",
      "vitest-postgres.json",
      "build.json",
      "playwright-pglite.json",
      "playwright-postgres.json",
    ];
// Suites whose command failed (the runner names them): at least one failure each, whatever the report says.
const exitedBadly = new Set((process.env.SUMMARY_EXITED_BADLY ?? "").split(",").filter(Boolean));
let passed = 0;
let failed = 0;

function counts(name, report) {
  if (name.startsWith("vitest")) {
    return {
      p: report.numPassedTests,
      f:
        report.numFailedTests +
        (report.numRuntimeErrorTestSuites ?? 0) +
        (report.success === false && report.numFailedTests === 0 && !report.numRuntimeErrorTestSuites ? 1 : 0),
    };
  }
  if (name.startsWith("playwright")) {
    return { p: report.stats.expected + report.stats.flaky, f: report.stats.unexpected + (report.errors?.length ?? 0) };
  }
  return { p: report.passed, f: report.failed };
}

// The report's failed tests (and Playwright's flaky ones, which passed on a retry), so the log that
// ends a CI run says which ones they were.
function failedTitles(name, report) {
  const titles = [];
  if (name.startsWith("vitest")) {
    for (const file of report.testResults ?? []) {
      for (const test of file.assertionResults ?? []) {
        if (test.status === "failed") titles.push(`failed: ${path.basename(file.name ?? "")} › ${test.fullName}`);
      }
      if (file.status === "failed" && !(file.assertionResults ?? []).some((t) => t.status === "failed")) {
        titles.push(
          `failed: ${path.basename(file.name ?? "")}: ${String(file.message ?? "the file failed").split("\n")[0]}`,
        );
      }
    }
  } else if (name.startsWith("playwright")) {
    const walk = (suite, trail) => {
      for (const spec of suite.specs ?? []) {
        for (const test of spec.tests ?? []) {
          if (test.status !== "unexpected" && test.status !== "flaky") continue;
          const firstFailure = test.results?.find((r) => r.status !== "passed" && r.status !== "skipped");
          const reason = String(firstFailure?.error?.message ?? "")
            .replace(/\u001b\[[0-9;]*m/g, "")
            .split("\n")[0];
          const label = test.status === "flaky" ? "flaky (failed, then passed on its retry)" : "failed";
          titles.push(
            `${label}: ${[...trail, spec.title].join(" › ")} (${spec.file}:${spec.line})${reason ? ` — ${reason}` : ""}`,
          );
        }
      }
      for (const child of suite.suites ?? []) walk(child, [...trail, child.title].filter(Boolean));
    };
    for (const suite of report.suites ?? []) walk(suite, []);
    for (const error of report.errors ?? [])
      titles.push(`failed: an error outside any test: ${String(error.message ?? "").split("\n")[0]}`);
  }
  return titles.slice(0, 20);
}

for (const name of expected) {
  const file = path.join(dir, name);
  if (!fs.existsSync(file)) {
    console.log(`${name}: no report (the suite did not finish)`);
    failed += 1;
    continue;
  }
  let c;
  try {
    c = counts(name, JSON.parse(fs.readFileSync(file, "utf8")));
    if (!Number.isInteger(c.p) || !Number.isInteger(c.f)) throw new Error("counts missing");
  } catch (error) {
    console.log(`${name}: the report cannot be read (${error.message})`);
    failed += 1;
    continue;
  }
  if (c.f === 0 && exitedBadly.has(name)) {
    console.log(`${name}: the suite exited with an error its report does not count (above)`);
    c.f = 1;
  }
  console.log(`${name}: ${c.p} passed, ${c.f} failed`);
  if (c.f > 0 || name.startsWith("playwright")) {
    try {
      for (const title of failedTitles(name, JSON.parse(fs.readFileSync(file, "utf8")))) console.log(`  ${title}`);
    } catch {
      // the counts above already say it failed
    }
  }
  passed += c.p;
  failed += c.f;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
