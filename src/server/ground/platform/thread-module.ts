import path from "node:path";
import { pathToFileURL } from "node:url";

const compiled = new Map<string, Promise<string>>();

/**
 * The file a worker thread runs for one of our TypeScript entry points: compiled once per process
 * into .build/threads/<name>.mjs by scripts/bundle.mjs (as `npm run worker` compiles the worker:
 * our code bundled, packages left to node_modules), so the same source runs under `npm start`,
 * `npm run worker` and the tests, never a stale copy. Compiling takes a fraction of a second; each
 * file is written under a name of its own and renamed into place, so processes starting together
 * never load half a file.
 */
export function threadModule(entry: string, name: string): Promise<string> {
  let file = compiled.get(name);
  if (!file) {
    file = (async () => {
      const root = process.cwd();
      const outfile = path.join(root, ".build", "threads", `${name}.mjs`);
      const bundler = pathToFileURL(path.join(root, "scripts", "bundle.mjs")).href;
      const { bundle } = (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ bundler)) as {
        bundle(entry: string, outfile: string): Promise<void>;
      };
      await bundle(entry, outfile);
      return outfile;
    })();
    compiled.set(name, file);
    // A failed compile is tried again next time rather than remembered.
    file.catch(() => compiled.delete(name));
  }
  return file;
}
