import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../../../..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "generated" ? [] : sources(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

describe("docs/configuration.md", () => {
  it("documents every test-only switch the service reads", () => {
    const doc = readFileSync(path.join(root, "docs/configuration.md"), "utf8");
    const read = new Set(
      sources(path.join(root, "src")).flatMap((file) =>
        [...readFileSync(file, "utf8").matchAll(/env\.([A-Z][A-Z0-9_]*_TEST_[A-Z0-9_]*)/g)].map((m) => m[1]),
      ),
    );
    expect([...read].sort()).toContain("WEBHOOK_TEST_ALLOW_LOCAL_URLS");
    expect([...read].filter((name) => !doc.includes(`| \`${name}\``))).toEqual([]);
  });
});
