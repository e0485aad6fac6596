/**
 * npm run seed:demo: creates (or completes) the two demo workspaces and prints one JSON document
 * to stdout with their ids, sign-in details, API keys, campaigns, contacts and sids. Logs go to
 * stderr. Safe to run again. Applies pending migrations first.
 */
import { runCli } from "@/server/ground/platform/cli";
import { seedDemo } from "@/server/programme/demo/seed";
import { applyMigrations } from "@/server/ground/platform/migrate";

await runCli(async (database) => {
  await applyMigrations(database.migrationAdapter());
  const summary = await seedDemo(database.prisma, (line) => console.error(line));
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
});
