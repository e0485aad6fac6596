/**
 * The house rules, checked by `npm run lint:deps` (and so by `npm test` and CI); docs/architecture.md
 * explains them. src/server is grouped by layer, lowest first: ground/, records/, programme/, doors/,
 * and runtime/ (the composition root) on top. Inside a layer every folder (or top-level file) has a
 * place in one order. A non-test file may import only what stands below its own folder in that order
 * (its own layer's lower folders, and every lower layer), so the folders form no cycle and a lower
 * layer never imports a higher one; a folder that must call up is handed a function by the
 * composition root instead. No file cycle anywhere in src/.
 */
const LAYERS = {
  // Configuration, the database, errors, the audit log, rate limits, HTTP helpers, the renderer,
  // membership checks, procedure kinds, and the lifecycle's wake-up signals.
  ground: ["errors", "platform", "db", "audit", "rate-limits", "http", "render", "access", "trpc", "signals"],
  // What the programme is made of: the email outbox (lowest: whatever happens may write a message),
  // cards, addresses, campaign rows, workspaces and people, keys, job queue, contacts and their audiences.
  records: [
    "email",
    "cards",
    "addresses",
    "campaign-records",
    "workspaces",
    "team",
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
};
/** Every place, lowest first, as "layer/folder"; the composition root (runtime/) stands above them all. */
const ORDER = [
  ...Object.entries(LAYERS).flatMap(([layer, names]) => names.map((name) => `${layer}/${name}`)),
  "runtime",
];
const placed = (places) => `^src/server/(${places.join("|")})(/|\\.tsx?$)`;
const NOT_TESTS = "\\.test\\.tsx?$";

/** One rule per place: nothing above it in ORDER. */
const upward = ORDER.slice(0, -1).map((place, i) => ({
  name: `${place}-imports-upward`,
  severity: "error",
  comment: `src/server/${place} may import only what stands below it in .dependency-cruiser.cjs's order (lower layers, and lower folders of its own layer); to call up, take a function the composition root (src/server/runtime/) passes in.`,
  from: { path: placed([place]), pathNot: NOT_TESTS },
  to: { path: placed(ORDER.slice(i + 1)) },
}));

const UNPLACED =
  "Every folder of src/server/<layer>/ has a place in .dependency-cruiser.cjs's LAYERS; add a new one there.";

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
      comment: UNPLACED,
      from: { path: "^src/server/", pathNot: [placed(ORDER), NOT_TESTS] },
      to: {},
    },
    {
      name: "unplaced-server-folder",
      severity: "error",
      comment: UNPLACED,
      from: {},
      to: { path: "^src/server/", pathNot: placed(ORDER) },
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
