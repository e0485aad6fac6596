import { describe, expect, it } from "vitest";
import { testDatabase } from "@/test/database";
import { applyMigrations } from "./migrate";

describe("applyMigrations", () => {
  it("records applied migrations where `prisma migrate deploy` does, and applies nothing twice", async () => {
    const database = await testDatabase();
    expect(await applyMigrations(database.migrationAdapter())).toEqual([]);
    const rows = await database.prisma.$queryRaw<{ migration_name: string; finished_at: Date | null }[]>`
      SELECT migration_name, finished_at FROM "_prisma_migrations" ORDER BY migration_name`;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0].migration_name).toMatch(/^\d{14}_init$/);
    expect(rows.every((r) => r.finished_at instanceof Date)).toBe(true);
  });
});
