import path from "node:path";
import { defineConfig } from "vitest/config";

const reportDir = process.env.TEST_REPORT_DIR;

export default defineConfig({
  resolve: {
    tsconfigPaths: true,
    // "server-only" throws outside React's server build; tests are server code.
    alias: { "server-only": path.resolve(import.meta.dirname, "src/test/server-only-stub.ts") },
  },
  test: {
    include: ["src/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
    globalSetup: ["src/test/global-setup.ts"],
    // Bounds for a test that hangs, not a speed requirement: on a busy two-core machine an ordinary
    // test took over 30 s (a mailability audit) and must not fail for it. Tests wait on conditions.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: "forks",
    maxWorkers: 2,
    reporters: reportDir ? ["default", "json"] : ["default"],
    outputFile: reportDir
      ? { json: path.join(reportDir, `vitest-${process.env.DATABASE_URL ? "postgres" : "pglite"}.json`) }
      : undefined,
  },
});
