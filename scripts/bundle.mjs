/**
 * Compiles one of our TypeScript entry points (the worker) into a single ES module under .build/,
 * run by plain Node: `node scripts/bundle.mjs scripts/worker.ts .build/worker.mjs`.
 *
 * Our code (src/, with its `@/` paths from tsconfig.json) and the JSON files it imports are
 * bundled; every package is left to Node's own resolution from node_modules, as `tsx` would load
 * it. The point is what the process does not carry: run through `tsx`, a worker kept a module
 * loader thread, the transformed source of every module and its source map, 75 to 80 MB more
 * resident memory before its first job (README, Benchmarks). Compiling takes a fraction of a
 * second, so `npm run worker` compiles every time it starts and never runs stale code.
 */
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
  await build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // As the server and `tsx --conditions=react-server` resolve our imports (server-only modules).
    conditions: ["react-server"],
    sourcemap: "linked",
    logLevel: "warning",
    plugins: [packagesStayExternal],
    // Some packages are CommonJS and call require(); an ES module has none of its own.
    banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const [entry, outfile] = process.argv.slice(2);
  if (!entry || !outfile) {
    console.error("usage: node scripts/bundle.mjs <entry.ts> <outfile.mjs>");
    process.exit(2);
  }
  await bundle(entry, outfile);
}
