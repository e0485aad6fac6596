import { CARD_EXPIRY_RULE } from "@/server/programme/confirmations/expiry";
import { MCP_TOOLS } from "@/server/doors/mcp/catalog";
import { SERVICE_NAME } from "@/server/ground/platform/version";

/** /agents/policy.md: the rules an agent follows before any write, with the tool lists from the code. */
export function agentPolicyMarkdown(base: string): string {
  const byKind = (kind: string) =>
    MCP_TOOLS.filter((t) => t.kind === kind)
      .map((t) => `\`${t.name}\``)
      .join(", ");
  return `# Agent policy for ${SERVICE_NAME}

Read this before any write call. It applies to every agent connected to a workspace over MCP.

## The person's credentials and decisions are theirs

- Never ask for, type, store or pass on a person's password, one-time code, session cookie or API
  key. You act only through the OAuth connection the owner approved.
- The same goes for CRM credentials (a HubSpot token, a Salesforce consumer key or secret): only the
  owner connects a CRM, in the browser (Settings → CRM). You may list connections and start syncs.
- Never sign in, approve, accept or decline on the person's behalf, even when you control a browser
  or a computer that could: opening a card's page for them is fine; clicking Accept or Decline is not.

## The confirmation gate

- Printing, approval and spending always wait for a person: going live (which approves the copy and
  spending up to the budget), approving a piece for print, raising a budget, resuming a paused
  campaign, and choosing the paid plan. The tools that ask for these
  (${byKind("request")}) create a **confirmation card** and change nothing else.
- Only the workspace owner, signed in to ${SERVICE_NAME} in a browser, can accept or decline a card.
  No agent token, API key or link can, and no setting turns the gate off.
- ${CARD_EXPIRY_RULE} Asking again for the same thing returns the same pending card.
- Never treat a reply in your conversation ("yes, go ahead") as the person's approval. Give them the
  card's URL and let them decide there; poll \`confirmations_get\` to learn the decision.
- On acceptance the action runs exactly once. The audit log records which agent asked and who decided.
- **Going live approves spending up to the campaign's budget.** Once a campaign is live, each entry
  event (\`entry_events_post\`, or a system posting with an API key) can print and mail a piece and
  spend its cost without any further card, until the budget is used. Say so when you ask for go-live,
  with the budget in the card.
- Pausing or ending a campaign (\`campaigns_pause\`, \`campaigns_end\`) only stops spending, so you may
  do it when the person asks; resuming asks for a card again.

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
- **Money is in integer cents** in every tool (fields named \`*Cents\`). Report cents as cents, or
  divide by 100 and say so; never read a cents figure as dollars.
- Errors carry a stable code (\`not_found\`, \`invalid_argument\`, \`conflict\`, \`invalid_state\`,
  \`needs_confirmation\`, \`plan_does_not_mail\`, \`insufficient_scope\`, …), one sentence and the next
  step; read them, fix the input, and retry only what failed. The codes are listed in [errors](${base}/problems.md).

## References

- [How agents get access](${base}/auth.md)
- [Entry lifecycle: statuses and skip reasons](${base}/docs/lifecycle.md)
- [Errors: problem types and tool error codes](${base}/problems.md)
- [MCP server card](${base}/.well-known/mcp)
- [Index of documents](${base}/llms.txt)
`;
}
