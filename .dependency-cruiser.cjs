/**
 * The house rules, checked by `npm run lint:deps` (and so by `npm test` and CI); docs/architecture.md
 * explains them. Every folder (or top-level file) of src/server has a place in one order, lowest
 * first, grouped in layers. A non-test file may import only folders below its own, so the folders
 * form no cycle and a lower layer never imports a higher one; a folder that must call up is handed
 * a function by the composition root (src/server/runtime/) instead. No file cycle anywhere in src/.
 */
const LAYERS = {
  // Configuration, the database, errors, the audit log, rate limits, HTTP helpers, the renderer,
  // membership checks, procedure kinds, and the lifecycle's wake-up signals.
  ground: ["errors", "platform", "db", "audit", "rate-limits", "http", "render", "access", "trpc", "signals"],
  // What the programme is made of: cards, addresses, campaign rows, workspaces and people, keys,
  // job queue, contacts and their audiences.
  records: [
    "cards",
    "addresses",
    "campaign-records",
    "workspaces",
    "auth",
    "api-keys",
    "oauth",
    "pieces",
    "calculators",
    "jobs",
    "contacts",
    "audiences",
  ],
  // The programme: from an import to a piece in the post and the lift it made.
  programme: [
    "imports",
    "brand",
    "designs",
    "mailability",
    "fulfilment",
    "drafts",
    "conversions",
    "responses",
    "holdouts",
    "crm",
    "entry",
    "erasure",
    "plans",
    "campaigns",
    "confirmations",
    "webhooks",
    "demo",
    "health",
  ],
  // The ways in: tRPC's context and app router, REST, MCP (with the documents it publishes), docs.
  doors: ["context", "rest", "mcp", "docs", "routers"],
  // The composition root: registers job handlers, starts the loops, boots, hands the doors over.
  root: ["runtime"],
};
const ORDER = Object.values(LAYERS).flat();
const layerOf = (folder) => Object.keys(LAYERS).find((layer) => LAYERS[layer].includes(folder));
const folders = (names) => `^src/server/(${names.join("|")})(/|\\.tsx?$)`;
const NOT_TESTS = "\\.test\\.tsx?$";

/** One rule per folder: nothing above it in ORDER. */
const upward = ORDER.slice(0, -1).map((folder, i) => ({
  name: `${layerOf(folder)}/${folder}-imports-upward`,
  severity: "error",
  comment: `src/server/${folder} (${layerOf(folder)}) may import only folders below it in .dependency-cruiser.cjs's order; to call up, take a function the composition root (src/server/runtime/) passes in.`,
  from: { path: folders([folder]), pathNot: NOT_TESTS },
  to: { path: folders(ORDER.slice(i + 1)) },
}));

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "A file cycle: these modules import each other (directly or through others). Move what both need into a third file.",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "unplaced-server-folder",
      severity: "error",
      comment: "Every folder of src/server has a place in .dependency-cruiser.cjs's LAYERS; add a new one there.",
      from: { path: "^src/server/[^/]+/", pathNot: folders(ORDER) },
      to: {},
    },
    {
      name: "unplaced-server-folder",
      severity: "error",
      comment: "Every folder of src/server has a place in .dependency-cruiser.cjs's LAYERS; add a new one there.",
      from: {},
      to: { path: "^src/server/[^/]+/", pathNot: folders(ORDER) },
    },
    {
      name: "unplaced-server-file",
      severity: "error",
      comment:
        "Every top-level file of src/server (errors.ts, db.ts, trpc.ts, ...) has a place in .dependency-cruiser.cjs's LAYERS; add a new one there, or put the file in a folder.",
      from: { path: "^src/server/[^/]+\\.tsx?$", pathNot: [folders(ORDER), NOT_TESTS] },
      to: {},
    },
    {
      name: "server-imports-no-ui",
      severity: "error",
      comment: "Server code never imports pages, components or the browser's tRPC client (a test may call a route).",
      from: { path: "^src/server/", pathNot: NOT_TESTS },
      to: { path: "^src/(app|components|trpc)/" },
    },
    ...upward,
  ],
  options: {
    // Type-only imports count too: they are import statements, and a type is a dependency.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^src/generated/|__golden__" },
    includeOnly: "^src/",
  },
};
