/**
 * Parts of the catalogue a client can load alone (`X-MCP-Toolsets` or `?toolsets=`), and the
 * read-only mode (`X-MCP-Readonly: true` or `?readonly=true`). The workspace summary and the
 * confirmation tools are in every selection: an agent starts with one and follows cards with the other.
 */
export const TOOLSETS = {
  people: "contacts, accounts, audiences, suppressions, imports, audits",
  creative: "brand kit, designs, drafts, gifts",
  campaigns: "campaigns, entry events, pieces, confirmations",
  results: "results, outcomes, responses, holdouts",
  settings: "plans, contracts, CRM, webhooks",
} as const;
export type TToolset = keyof typeof TOOLSETS;
const TOOLSET_NAMES = Object.keys(TOOLSETS) as TToolset[];

/** A tool's toolset by the first words of its name; "always" for the tools every selection has. */
const BY_PREFIX: [string, TToolset | "always"][] = [
  ["workspace_", "always"],
  ["confirmations_", "always"],
  ["contacts_", "people"],
  ["accounts_", "people"],
  ["audiences_", "people"],
  ["suppressions_", "people"],
  ["imports_", "people"],
  ["audits_", "people"],
  ["brand_kit_", "creative"],
  ["designs_", "creative"],
  ["drafts_", "creative"],
  ["gift_", "creative"],
  ["gifts_", "creative"],
  ["campaigns_", "campaigns"],
  ["entry_events_", "campaigns"],
  ["pieces_", "campaigns"],
  ["results_", "results"],
  ["outcomes_", "results"],
  ["responses_", "results"],
  ["holdouts_", "results"],
  ["plans_", "settings"],
  ["contracts_", "settings"],
  ["crm_", "settings"],
  ["webhooks_", "settings"],
];

export function toolsetOf(name: string): TToolset | "always" {
  const found = BY_PREFIX.find(([prefix]) => name.startsWith(prefix));
  if (!found) throw new Error(`The tool ${name} belongs to no toolset.`);
  return found[1];
}

/** What a connection asked to see: some toolsets (null: all) and whether only read-only tools. */
export interface ToolSelection {
  toolsets: TToolset[] | null;
  readonly: boolean;
}
/** What a selection needs of a tool (its kind: "read" or another). */
type NamedTool = { name: string; kind: string };

export const EVERY_TOOL: ToolSelection = { toolsets: null, readonly: false };

export const selects = (selection: ToolSelection, tool: NamedTool) => {
  const set = toolsetOf(tool.name);
  return (
    (!selection.readonly || tool.kind === "read") &&
    (selection.toolsets === null || set === "always" || selection.toolsets.includes(set))
  );
};

/** Why a selected connection cannot call this tool, in a sentence; null when it can. */
export function refusalOf(selection: ToolSelection, tool: NamedTool): string | null {
  if (selects(selection, tool)) return null;
  if (selection.readonly && tool.kind !== "read")
    return `This connection is read-only (X-MCP-Readonly: true), and ${tool.name} writes: nothing was done. Connect without the read-only mode to use it.`;
  return `${tool.name} is in the ${toolsetOf(tool.name)} toolset, which this connection did not name (X-MCP-Toolsets: ${selection.toolsets?.join(",")}): nothing was done. Connect naming that toolset too, or none for every tool.`;
}

/** How a client asks for part of the catalogue, in words (llms.txt, the server card, the docs). */
export const TOOLSETS_SENTENCE = `Load part of the catalogue with the header X-MCP-Toolsets (or the query ?toolsets=), a comma list of ${Object.entries(
  TOOLSETS,
)
  .map(([name, what]) => `${name} (${what})`)
  .join(
    ", ",
  )}; workspace_get_summary and the confirmation tools are always there, and none named means every tool. X-MCP-Readonly: true (or ?readonly=true) lists only read-only tools and refuses a call to any other. An unknown toolset is a 400 naming the known ones.`;

/** The selection a request names (header first, else query), or the sentence refusing it. */
export function selectionOf(req: Request): ToolSelection | { error: string } {
  const url = new URL(req.url);
  const toolsets = (req.headers.get("x-mcp-toolsets") ?? url.searchParams.get("toolsets") ?? "").trim();
  const readonly = (req.headers.get("x-mcp-readonly") ?? url.searchParams.get("readonly") ?? "").trim().toLowerCase();
  if (readonly && readonly !== "true" && readonly !== "false")
    return { error: `X-MCP-Readonly (or ?readonly=) is true or false, not “${readonly.slice(0, 40)}”.` };
  if (!toolsets) return { toolsets: null, readonly: readonly === "true" };
  const names = [
    ...new Set(
      toolsets
        .split(",")
        .map((n) => n.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  const unknown = names.filter((n) => !(TOOLSET_NAMES as string[]).includes(n)).slice(0, 5);
  if (unknown.length || !names.length)
    return {
      error: `Unknown toolset ${unknown.map((n) => `“${n.slice(0, 40)}”`).join(", ") || "(none named)"} in X-MCP-Toolsets (or ?toolsets=): the toolsets are ${TOOLSET_NAMES.join(", ")}, as a comma list.`,
    };
  return { toolsets: names as TToolset[], readonly: readonly === "true" };
}
