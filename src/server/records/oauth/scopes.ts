/**
 * The scopes an agent (MCP client) can be granted, each with the words the consent page shows.
 * Nothing here lets an agent print, approve or spend: those always wait for a person's card.
 */
export const MCP_SCOPES = ["workspace:read", "campaigns:write", "entry_events:write", "contacts:write"] as const;
export type TMcpScope = (typeof MCP_SCOPES)[number];

export const mcpScopeDescriptions: Record<TMcpScope, string> = {
  "workspace:read": "See the workspace: its plan, campaigns, audiences, contacts, results and confirmation cards.",
  "campaigns:write":
    "Create and edit draft campaigns, and ask for consequential actions (go live, approve a piece, raise a budget, change the plan). Each such request waits for you to accept a confirmation card in the browser.",
  "entry_events:write": "Admit contacts to live campaigns by posting entry events, as the REST API does.",
  "contacts:write":
    "Import contacts from CSV text, change audiences and their members, and add to the suppression list. Every change is in the audit log under the agent's name; nothing here prints, approves or spends.",
};

/** Scopes granted when a client asks for none. */
export const DEFAULT_MCP_SCOPES: TMcpScope[] = [...MCP_SCOPES];

/** Splits an OAuth `scope` parameter; returns null if it names a scope we do not know. */
export function parseScopeParam(scope: string | null | undefined): TMcpScope[] | null {
  if (!scope?.trim()) return DEFAULT_MCP_SCOPES;
  const names = [...new Set(scope.trim().split(/\s+/))];
  if (!names.every((n): n is TMcpScope => (MCP_SCOPES as readonly string[]).includes(n))) return null;
  return MCP_SCOPES.filter((s) => names.includes(s));
}
