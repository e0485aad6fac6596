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
  : ["typecheck.json", "lint-deps.json", "vitest-pglite.json", "vitest-postgres.json", "build.json", "playwright-pglite.json", "playwright-postgres.json"];
// Suites whose command failed (the runner names them): at least one failure each, whatever the report says.
const exitedBadly = new Set((process.env.SUMMARY_EXITED_BADLY ?? "").split(",").filter(Boolean));
let passed = 0;
let failed = 0;

function counts(name, report) {
  if (name.startsWith("vitest")) {
    return { p: report.numPassedTests, f: report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0) + (report.success === false && report.numFailedTests === 0 && !report.numRuntimeErrorTestSuites ? 1 : 0) };
  }
  if (name.startsWith("playwright")) {
    return { p: report.stats.expected + report.stats.flaky, f: report.stats.unexpected + (report.errors?.length ?? 0) };
  }
  return { p: report.passed, f: report.failed };
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
  passed += c.p;
  failed += c.f;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
