import { defineConfig } from "prisma/config";

// The datasource URL is only needed by the ordinary Prisma CLI (`prisma migrate deploy` on a
// machine with network access). This project migrates with Prisma's WASM schema engine instead:
// see scripts/db-migrate.ts. `env()` would throw when DATABASE_URL is unset and break postinstall.
export default defineConfig({
  schema: "prisma/schema",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "" },
});
