/** npm run db:migrate: applies prisma/migrations to the configured database (DATABASE_URL or the embedded one), then the data backfills they left pending. */
import { runDataBackfills } from "@/server/records/contacts/rekey";
import { runCli } from "@/server/ground/platform/cli";
import { applyMigrations } from "@/server/ground/platform/migrate";

await runCli(async (database) => {
  const applied = await applyMigrations(database.migrationAdapter());
  console.error(
    applied.length ? `Applied ${applied.length} migration(s): ${applied.join(", ")}` : "The database is up to date.",
  );
  await runDataBackfills(database.prisma, (line) => console.error(line));
});
