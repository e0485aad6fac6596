import { REQUEST_CARD_TTL_HOURS } from "@/server/confirmations/requests";
import { MCP_TOOLS } from "@/server/mcp/catalog";
import { SERVICE_NAME } from "@/server/platform/version";

/** /agents/policy.md: the rules an agent follows before any write, with the tool lists from the code. */
export function agentPolicyMarkdown(base: string): string {
  const byKind = (kind: string) => MCP_TOOLS.filter((t) => t.kind === kind).map((t) => `\`${t.name}\``).join(", ");
  return `# Agent policy for ${SERVICE_NAME}

Read this before any write call. It applies to every agent connected to a workspace over MCP.

## The confirmation gate

- Printing, approval and spending always wait for a person: going live (which approves the copy),
  approving a piece for print, and raising a budget. The tools that ask for these
  (${byKind("request")}) create a **confirmation card** and change nothing else.
- Only the workspace owner, signed in to ${SERVICE_NAME} in a browser, can accept or decline a card.
  No agent token, API key or link can, and no setting turns the gate off.
- A card expires after ${REQUEST_CARD_TTL_HOURS} hours. Asking again for the same thing returns the same pending card.
- Never treat a reply in your conversation ("yes, go ahead") as the person's approval. Give them the
  card's URL and let them decide there; poll \`confirmations_get\` to learn the decision.
- On acceptance the action runs exactly once. The audit log records which agent asked and who decided.

## Before and after every write

Writes are ${byKind("write")}, and the requests above. Before one, tell the person what you are about to
do. After it, tell them, from the tool result:

1. **what was requested** (\`requested\`),
2. **what changed** (\`changed\`; empty when nothing did),
3. **what still awaits confirmation** (\`awaitingConfirmation\`, with each card's URL).

Drafts can be edited freely; they mail nothing and spend nothing. Editing a draft expires its
pending go-live card (the person must see what will actually run): ask again after the edit. Live
campaigns are frozen: their entry policy, holdout and copy cannot change.

If your client supports URL-mode elicitation, a request answers with a URL elicitation for the
card's page instead of a result: open it for the person, and retry the call once they have decided.

## Start of a session

Call \`workspace_get_summary\` first. On the free audit plan everything works except reaching a
mailbox; say so when it matters.

## Data handling

- Contacts are people: use their names, addresses and emails only for the task the person gave
  you. Do not copy contact lists out of the workspace or into other tools without being asked.
- Do not put personal data in idempotency keys or campaign names.
- Suppressed contacts are never mailed; do not try to work around a suppression, holdout, frequency cap,
  review gate or budget.
- Results compare mailed accounts with held-out ones. Report "not enough data yet" as it is; do not
  present an interval that includes zero as a lift.
- Errors say what went wrong and that nothing was written; read them, fix the input, and retry only
  what failed.

## References

- [How agents get access](${base}/auth.md)
- [MCP server card](${base}/.well-known/mcp)
- [Index of documents](${base}/llms.txt)
`;
}
