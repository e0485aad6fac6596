/**
 * npm run db:migration -- NAME
 * Makes prisma/migrations/<timestamp>_NAME/migration.sql from the difference between the existing
 * migrations and prisma/schema. Works offline: the migrations are replayed on an in-memory PGlite.
 */
import { openDatabase } from "@/server/ground/platform/database";
import { diffMigrationsToSchema, writeNewMigration } from "@/server/ground/platform/migrate";

const name = process.argv.slice(2).join("_");
if (!name) {
  console.error("Usage: npm run db:migration -- NAME   (for example: npm run db:migration -- add_brand_kit)");
  process.exit(2);
}
const scratch = openDatabase({ kind: "memory" });
try {
  const sql = await diffMigrationsToSchema(scratch.migrationAdapter());
  const folder = await writeNewMigration(name, sql);
  console.error(folder ? `Wrote ${folder}/migration.sql` : "The schema matches the migrations; nothing to write.");
} finally {
  await scratch.close();
}
