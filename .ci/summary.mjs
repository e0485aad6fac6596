// Sums the JSON reports of every suite into the one closing line CI reads: "N passed, N failed".
// A suite whose report is missing (it crashed before reporting) counts as one failure.
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2];
const expected = ["vitest-pglite.json", "vitest-postgres.json", "playwright-pglite.json", "playwright-postgres.json"];
let passed = 0;
let failed = 0;
for (const name of expected) {
  const file = path.join(dir, name);
  if (!fs.existsSync(file)) {
    console.log(`${name}: no report (the suite did not finish)`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  let p;
  let f;
  if (name.startsWith("vitest")) {
    p = report.numPassedTests;
    f = report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0);
  } else {
    p = report.stats.expected + report.stats.flaky;
    f = report.stats.unexpected + (report.errors?.length ?? 0);
  }
  console.log(`${name}: ${p} passed, ${f} failed`);
  passed += p;
  failed += f;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
