/**
 * Which suites run on which database. Every suite runs on PostgreSQL, the database that scales; the
 * embedded PGlite runs what can differ there, so CI does not pay twice for code that never meets a
 * database.
 *
 * - vitest: a test file meets a database only through src/test/database.ts (testDatabase), directly
 *   or through a fixture module of src/test that imports it. The PGlite run takes every file; the
 *   PostgreSQL run takes the files that reach that module.
 * - Playwright: the PGlite run takes the projects where the embedded database is what a person
 *   meets (`npm start`): the owner's pages from sign-up, the operations pages (start-up, health),
 *   a heavy import beside everything else in one process, and the run's own 5xx check. The API,
 *   agents and fuzz suites exercise code above the database and run on PostgreSQL.
 */
import fs from "node:fs";
import path from "node:path";

export const PGLITE_E2E_PROJECTS = ["owner", "ops", "load", "server-errors"];

const IMPORT = /(?:from|import)\s*\(?\s*["']([^"']+)["']/g;

function importsOf(file) {
  return [...fs.readFileSync(file, "utf8").matchAll(IMPORT)].map((m) => m[1]);
}

function walk(dir, keep, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && entry.name !== "generated") walk(full, keep, out);
    } else if (keep(entry.name)) out.push(full);
  }
  return out;
}

/** The modules of src/test that lead to src/test/database.ts, by their "@/test/…" names. */
function databaseFixtures(root) {
  const testDir = path.join(root, "src/test");
  const names = fs
    .readdirSync(testDir)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .map((f) => f.replace(/\.ts$/, ""));
  const edges = new Map(
    names.map((name) => [
      name,
      importsOf(path.join(testDir, `${name}.ts`))
        .map((spec) => spec.match(/^(?:\.\/|@\/test\/)([\w-]+)$/)?.[1])
        .filter(Boolean),
    ]),
  );
  const reaches = new Set(["database"]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [name, deps] of edges)
      if (!reaches.has(name) && deps.some((d) => reaches.has(d))) {
        reaches.add(name);
        grew = true;
      }
  }
  return reaches;
}

/** The vitest files that open a database, relative to root. */
export function databaseTestFiles(root) {
  const fixtures = databaseFixtures(root);
  return [path.join(root, "src"), path.join(root, "scripts")]
    .flatMap((dir) => walk(dir, (name) => name.endsWith(".test.ts")))
    .filter((file) =>
      importsOf(file).some((spec) => {
        const name =
          spec.match(/^@\/test\/([\w-]+)$/)?.[1] ??
          (file.includes("/src/test/") ? spec.match(/^\.\/([\w-]+)$/)?.[1] : undefined);
        return name !== undefined && fixtures.has(name);
      }),
    )
    .map((file) => path.relative(root, file))
    .sort();
}
