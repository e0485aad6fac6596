import { CARD_EXPIRY_RULE } from "@/server/programme/confirmations/expiry";
import { GATE_ORDER } from "@/server/programme/entry/lifecycle/gate-order";
import {
  ENTRY_STATUSES,
  entryStatusDescriptions,
  SKIP_REASONS,
  skipReasonDescriptions,
  WAITING_REASONS,
  waitingReasonDescriptions,
} from "@/server/programme/entry/lifecycle-states";
import { problemTable } from "@/server/ground/errors";
import { TOOL_ERROR_CODES, toolErrorDescriptions } from "@/server/doors/mcp/errors";
import { SERVICE_NAME } from "@/server/ground/platform/version";

/** /docs/lifecycle.md: the entry lifecycle's gates, statuses and skip reasons, for agents (an MCP resource too). */
export function lifecycleMarkdown(base: string): string {
  return `# The entry lifecycle of ${SERVICE_NAME}

An accepted entry event (REST \`POST /api/v1/campaigns/{campaignId}/events\`, or the \`entry_events_post\` tool) is
processed afterwards through the campaign's gates, in this order. Read its progress with
\`GET /api/v1/campaigns/{campaignId}/events/{eventId}\` or \`entry_events_get\`. The same text for people: ${base}/docs/lifecycle

## Gates, in order

${GATE_ORDER.map((g, i) => `${i + 1}. **${g.gate}.** ${g.what}${g.outcomes.length ? ` Outcome: ${g.outcomes.map((o) => `\`${o}\``).join(", ")}.` : ""}`).join("\n")}

## Confirmation cards

${CARD_EXPIRY_RULE}

## Statuses (\`status\`)

${ENTRY_STATUSES.map((s) => `- \`${s}\`: ${entryStatusDescriptions[s]}`).join("\n")}

## Skip reasons (\`skipReason\`, only when \`status\` is \`skipped\`)

${SKIP_REASONS.map((r) => `- \`${r}\`: ${skipReasonDescriptions[r]}`).join("\n")}

## Why an event waits (\`waitingReason\` in the REST status read while \`status\` is \`waiting\`, with \`waitingUntil\`; \`waiting.reason\` in \`entry_events_get\`)

${WAITING_REASONS.map((r) => `- \`${r}\`: ${waitingReasonDescriptions[r]}`).join("\n")}

A gift campaign whose response is a gift claim page (\`responseMode\` \`gift_claim\`) holds each gift's budget, then waits
(\`gift_claim\`) for its recipient to claim it at ${base}/r/{code}: the claim link is in \`entry_events_get\` (\`waiting.claimUrl\`)
and \`gift_claims_list\`, for the team to send. Claimed, it goes to the printer at once (even if the campaign ends meanwhile);
declined, it ends \`skipped\` with \`gift_declined\`; unclaimed when the claim expires (\`claimWindowDays\`), with \`gift_unclaimed\`.
`;
}

/** /problems.md: every REST problem type and every MCP tool error code, for agents (an MCP resource too). */
export function problemsMarkdown(base: string): string {
  return `# Errors of ${SERVICE_NAME}

## REST problem types (RFC 9457)

Failures of \`/api/v1\` and \`/api/tools\` are \`application/problem+json\` documents; \`type\` is one of these pages.

${Object.values(problemTable)
  .map(
    (p) =>
      `- [\`${base}/problems/${p.slug}\`](${base}/problems/${p.slug}) (${p.status}): **${p.title}.** ${p.explanation}`,
  )
  .join("\n")}

## MCP tool error codes

A failed tool call is a result with \`isError: true\`; its text starts with \`Error <code>:\`, then one sentence and
\`Next step:\`, and \`_meta["io.direct-mail-programme/error"]\` holds \`{ code, message, nextStep, fields? }\`.

${TOOL_ERROR_CODES.map((c) => `- \`${c}\`: ${toolErrorDescriptions[c]}`).join("\n")}
`;
}
