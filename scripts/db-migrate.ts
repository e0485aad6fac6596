/** npm run db:migrate: applies prisma/migrations to the configured database (DATABASE_URL or the embedded one). */
import { runCli } from "@/server/platform/cli";
import { applyMigrations } from "@/server/platform/migrate";

await runCli(async (database) => {
  const applied = await applyMigrations(database.migrationAdapter());
  console.error(applied.length ? `Applied ${applied.length} migration(s): ${applied.join(", ")}` : "The database is up to date.");
});
