import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { cruise, type ICruiseResult } from "dependency-cruiser";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The house rules of .dependency-cruiser.cjs (what `npm run lint:deps` checks) applied to small
 * throwaway trees laid out like src/: an upward import and a file cycle are each refused with the
 * offending import named, and a downward import passes.
 */
const config = createRequire(import.meta.url)("../.dependency-cruiser.cjs") as { forbidden: unknown[] };
const roots: string[] = [];

async function check(files: Record<string, string>) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "house-rules-"));
  roots.push(root);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  const previous = process.cwd();
  process.chdir(root);
  try {
    const result = await cruise(["src"], {
      baseDir: root,
      ruleSet: { forbidden: config.forbidden } as never,
      tsPreCompilationDeps: true,
      validate: true,
    });
    return (result.output as ICruiseResult).summary.violations.map((v) => ({
      rule: v.rule.name,
      from: v.from,
      to: v.to,
    }));
  } finally {
    process.chdir(previous);
  }
}

afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

describe("npm run lint:deps", () => {
  it("refuses the ground importing a domain, naming the import", async () => {
    const violations = await check({
      "src/server/ground/platform/boot.ts": `import { goLive } from "../../programme/campaigns/service";\nexport const boot = () => goLive();\n`,
      "src/server/programme/campaigns/service.ts": `export const goLive = () => 1;\n`,
    });
    expect(violations).toEqual([
      {
        rule: "ground/platform-imports-upward",
        from: "src/server/ground/platform/boot.ts",
        to: "src/server/programme/campaigns/service.ts",
      },
    ]);
  });

  it("refuses a domain importing one above it in the same layer, and a type-only import counts", async () => {
    const violations = await check({
      "src/server/programme/entry/worker.ts": `import type { Campaign } from "../campaigns/service";\nexport const run = (c: Campaign) => c;\n`,
      "src/server/programme/campaigns/service.ts": `export interface Campaign { id: string }\n`,
    });
    expect(violations).toEqual([
      {
        rule: "programme/entry-imports-upward",
        from: "src/server/programme/entry/worker.ts",
        to: "src/server/programme/campaigns/service.ts",
      },
    ]);
  });

  it("refuses a file cycle, and a folder or top-level file that has no place in the layers", async () => {
    const violations = await check({
      "src/components/a.ts": `import { b } from "./b";\nexport const a = () => b;\n`,
      "src/components/b.ts": `import { a } from "./a";\nexport const b = () => a;\n`,
      "src/server/programme/newthing/x.ts": `import { a } from "../../../components/a";\nexport const x = a;\n`,
      "src/server/stray.ts": `import { x } from "./programme/newthing/x";\nexport const y = x;\n`,
    });
    expect(violations).toContainEqual({
      rule: "unplaced-server-folder",
      from: "src/server/stray.ts",
      to: "src/server/programme/newthing/x.ts",
    });
    expect(violations).toContainEqual({ rule: "no-circular", from: "src/components/a.ts", to: "src/components/b.ts" });
    expect(violations).toContainEqual({
      rule: "unplaced-server-folder",
      from: "src/server/programme/newthing/x.ts",
      to: "src/components/a.ts",
    });
  });

  it("lets a domain import downward, and a test import anything", async () => {
    const violations = await check({
      "src/server/programme/campaigns/service.ts": `import { keyOf } from "../../records/contacts/keys";\nexport const k = keyOf;\n`,
      "src/server/records/contacts/keys.ts": `export const keyOf = (s: string) => s;\n`,
      "src/server/records/contacts/keys.test.ts": `import { k } from "../../programme/campaigns/service";\nexport const t = k;\n`,
    });
    expect(violations).toEqual([]);
  });
});
