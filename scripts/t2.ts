import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { applyMigrations } from "@/server/platform/migrate";
let t = Date.now();
const p = new PGlite(); await p.query("select 1"); console.log("init", Date.now() - t);
t = Date.now();
await applyMigrations(new PrismaPGlite(p)); console.log("migrate", Date.now() - t);
t = Date.now();
const dump = await p.dumpDataDir("none"); console.log("dump", Date.now() - t, dump.size);
for (let i = 0; i < 3; i++) {
t = Date.now();
const q = new PGlite({ loadDataDir: dump }); const r = await q.query('select count(*) from "Workspace"'); console.log("load", Date.now() - t, r.rows);
}
