/**
 * Compiles one of our TypeScript entry points (the worker) into a single ES module under .build/,
 * run by plain Node: `node scripts/bundle.mjs scripts/worker.ts .build/worker.mjs`.
 *
 * Our code (src/, with its `@/` paths from tsconfig.json) and the JSON files it imports are
 * bundled; every package is left to Node's own resolution from node_modules, as `tsx` would load
 * it. The point is what the process does not carry: run through `tsx`, a worker kept a module
 * loader thread, the transformed source of every module and its source map: 75 to 135 MB more
 * resident memory before its first job (README, Running on PostgreSQL). Compiling takes a fraction
 * of a second, so `npm run worker` compiles every time it starts and never runs stale code. Each
 * file is written under a name of its own and then renamed into place, so workers started together
 * never load a file another one is still writing.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Leaves packages (bare specifiers) to Node, except their JSON files: Node would want an import attribute for those. */
const packagesStayExternal = {
  name: "packages-stay-external",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith("@/") || args.path.endsWith(".json") ? undefined : { path: args.path, external: true }));
  },
};

/** Bundles `entry` (relative to the project) into `outfile`; resolves once written. */
export async function bundle(entry, outfile) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile: path.resolve(root, outfile),
    write: false,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: "linked",
    logLevel: "warning",
    plugins: [packagesStayExternal],
    // Some packages are CommonJS and call require(); an ES module has none of its own.
    banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
  });
  // The source map first, so the module never names a map that is not there yet.
  const files = [...result.outputFiles].sort((a, b) => Number(b.path.endsWith(".map")) - Number(a.path.endsWith(".map")));
  for (const file of files) {
    await fs.mkdir(path.dirname(file.path), { recursive: true });
    const partial = `${file.path}.${process.pid}.${Date.now()}.tmp`;
    await fs.writeFile(partial, file.contents);
    await fs.rename(partial, file.path);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const [entry, outfile] = process.argv.slice(2);
  if (!entry || !outfile) {
    console.error("usage: node scripts/bundle.mjs <entry.ts> <outfile.mjs>");
    process.exit(2);
  }
  await bundle(entry, outfile);
}
