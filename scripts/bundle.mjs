/**
 * Compiles one of our TypeScript entry points (the worker) into ES modules under .build/, run by
 * plain Node: `node scripts/bundle.mjs scripts/worker.ts .build/worker.mjs`.
 *
 * Our code (src/, with its `@/` paths from tsconfig.json) and the JSON files it imports are
 * bundled; every package is left to Node's own resolution from node_modules, as `tsx` would load
 * it. The point is what the process does not carry: run through `tsx`, a worker kept a module
 * loader thread, the transformed source of every module and its source map: 75 to 135 MB more
 * resident memory before its first job (README, Running on PostgreSQL). Compiling takes a fraction
 * of a second, so `npm run worker` compiles every time it starts and never runs stale code.
 *
 * The output is split (esbuild's `splitting`): a dynamic `import()` of one of our modules becomes a
 * chunk of its own, loaded with the packages it imports only when the import runs (a job kind's
 * handler, a CRM's client, Stripe). Without it, esbuild hoists every package import to the top of
 * one file and a worker loads every library at start. Chunks sit beside the entry file and are
 * named by the hash of their content, so two builds of the same code write the same files, and
 * a running worker's chunks are never replaced by different ones under it (old chunks are left,
 * for workers still running older code). Each file is written under a name of its own and then
 * renamed into place, source maps and chunks before the entry file that imports them, so workers
 * started together never load a file another one is still writing.
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
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@/") || args.path.endsWith(".json") ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * The Node flags a compiled worker runs with (package.json's `worker` script spells out the same):
 * source maps for its stack traces, the server's package conditions, and 8 MB semi-spaces for V8's
 * young generation instead of Node's 16 MB. A worker's garbage is mostly a batch's short-lived
 * rows; with the import thread's smaller young generation (imports/checked-batches.ts) this kept a
 * 100,000-row import's peak resident memory about 45 MB lower for about a second more CPU (4 MB
 * and 12 MB: about 70 MB lower for 2.5 s more; docs/benchmarks.md).
 */
export const WORKER_NODE_FLAGS = ["--max-semi-space-size=8", "--enable-source-maps", "--conditions=react-server"];

/**
 * glibc's malloc settings a worker runs with (package.json's `worker` script spells out the same),
 * each taken from the environment when it is set there: two arenas instead of eight per core, and
 * blocks from 128 KB on mapped on their own and given back to the system when freed (glibc's
 * default threshold climbs to 32 MB as large blocks are freed, and the heap keeps them). With the
 * second, a 100,000-row import's peak resident memory was about 20 MB lower for the same CPU
 * (266 and 264 MB against 283 and 286 MB, alternate runs; docs/benchmarks.md).
 */
export const workerMallocEnv = (env = process.env) => ({
  MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? "2",
  MALLOC_MMAP_THRESHOLD_: env.MALLOC_MMAP_THRESHOLD_ ?? "131072",
});

/** Bundles `entry` (relative to the project) into `outfile`; resolves once written. */
export async function bundle(entry, outfile) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [{ in: entry, out: path.basename(outfile, ".mjs") }],
    outdir: path.dirname(path.resolve(root, outfile)),
    outExtension: { ".js": ".mjs" },
    chunkNames: "chunk-[hash]",
    splitting: true,
    write: false,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: "linked",
    logLevel: "warning",
    plugins: [packagesStayExternal],
    // Some packages are CommonJS and call require(); an ES module has none of its own.
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
    },
  });
  // Source maps first, so a module never names a map that is not there yet; then the chunks, and
  // the entry file last, so it never imports a chunk that is not there yet.
  const entryFile = path.resolve(root, outfile);
  const rank = (file) => (file.path.endsWith(".map") ? 0 : file.path === entryFile ? 2 : 1);
  const files = [...result.outputFiles].sort((a, b) => rank(a) - rank(b));
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
