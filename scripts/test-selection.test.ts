import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs module of the test runner, without types.
import { databaseTestFiles, PGLITE_E2E_PROJECTS } from "./test-selection.mjs";

const root = path.resolve(import.meta.dirname, "..");

describe("which suites run on PostgreSQL as well as PGlite", () => {
  it("takes every vitest file that opens a database, directly or through a fixture, and none that cannot", () => {
    const files: string[] = databaseTestFiles(root);
    // Opens one itself.
    expect(files).toContain("src/server/records/auth/service.test.ts");
    // The renderer and the house rules meet no database.
    expect(files).not.toContain("src/server/ground/render/render.test.ts");
    expect(files).not.toContain("scripts/house-rules.test.ts");
    // Any test that calls testDatabase() is among them.
    const all = ["src", "scripts"]
      .flatMap((dir) =>
        fs.readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" }).map((f) => `${dir}/${f}`),
      )
      .filter((f) => f.endsWith(".test.ts") && !f.includes("/generated/") && f !== "scripts/test-selection.test.ts")
      .filter((f) => fs.readFileSync(path.join(root, f), "utf8").includes("testDatabase("));
    expect(all.filter((f) => !files.includes(f))).toEqual([]);
  });

  it("names Playwright projects that exist", () => {
    const config = fs.readFileSync(path.join(root, "playwright.config.ts"), "utf8");
    for (const name of PGLITE_E2E_PROJECTS) expect(config).toContain(`name: "${name}"`);
  });
});
