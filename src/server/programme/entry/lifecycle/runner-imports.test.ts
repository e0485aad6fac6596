import { cruise, type ICruiseResult } from "dependency-cruiser";
import { describe, expect, it } from "vitest";

/**
 * What a worker loads with its first batch of events (worker.ts imports ./batch and ./runner then):
 * the modules those two reach by static imports, type-only ones aside. The renderer (fonts, layout,
 * PDF), pdf-lib and Lob's client are loaded by the pieces that need them, through a dynamic
 * import: a batch whose pieces print drafts rendered before go-live, through the sandbox, loads
 * none of them (about 350 ms less of each worker's CPU; docs/benchmarks.md).
 */
async function staticallyReached(entries: string[]): Promise<{ modules: Set<string>; packages: Set<string> }> {
  const result = await cruise(entries, {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^src/generated/" },
  });
  const graph = new Map((result.output as ICruiseResult).modules.map((m) => [m.source, m.dependencies]));
  const modules = new Set<string>();
  const packages = new Set<string>();
  const visit = (source: string) => {
    if (modules.has(source)) return;
    modules.add(source);
    for (const d of graph.get(source) ?? []) {
      if (d.dynamic || d.dependencyTypes.includes("type-only") || d.dependencyTypes.includes("type-import")) continue;
      if (d.resolved.includes("node_modules/"))
        packages.add(
          d.module
            .split("/")
            .slice(0, d.module.startsWith("@") ? 2 : 1)
            .join("/"),
        );
      else visit(d.resolved);
    }
  };
  for (const entry of entries) visit(entry);
  return { modules, packages };
}

describe("the lifecycle's first batch", () => {
  it("loads neither the renderer, nor pdf-lib, nor Lob's client until a piece needs them", async () => {
    const { modules, packages } = await staticallyReached([
      "src/server/programme/entry/lifecycle/batch.ts",
      "src/server/programme/entry/lifecycle/runner.ts",
    ]);
    expect(modules.has("src/server/programme/entry/lifecycle/batch-pieces.ts")).toBe(true);
    expect(modules.has("src/server/programme/drafts/piece-draft.ts")).toBe(true);
    expect(
      [...modules].filter((m) =>
        /^src\/server\/(render\/(index|pdf)|drafts\/render|designs\/compose|brand\/service)\.ts$/.test(m),
      ),
    ).toEqual([]);
    expect(
      [...packages].filter((p) =>
        ["pdfkit", "pdf-lib", "@lob/lob-typescript-sdk", "qrcode", "@resvg/resvg-js"].includes(p),
      ),
    ).toEqual([]);
  }, 60_000);
});
