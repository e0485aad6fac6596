import { GATE_ORDER } from "@/server/entry/lifecycle/gate-order";
import { ENTRY_STATUSES, entryStatusDescriptions, SKIP_REASONS, skipReasonDescriptions } from "@/server/entry/lifecycle-states";
import { problemTable } from "@/server/errors";
import { TOOL_ERROR_CODES, toolErrorDescriptions } from "@/server/mcp/errors";
import { SERVICE_NAME } from "@/server/platform/version";

/** /docs/lifecycle.md: the entry lifecycle's gates, statuses and skip reasons, for agents (an MCP resource too). */
export function lifecycleMarkdown(base: string): string {
  return `# The entry lifecycle of ${SERVICE_NAME}

An accepted entry event (REST \`POST /api/v1/campaigns/{campaignId}/events\`, or the \`entry_events_post\` tool) is
processed afterwards through the campaign's gates, in this order. Read its progress with
\`GET /api/v1/campaigns/{campaignId}/events/{eventId}\` or \`entry_events_get\`. The same text for people: ${base}/docs/lifecycle

## Gates, in order

${GATE_ORDER.map((g, i) => `${i + 1}. **${g.gate}.** ${g.what}${g.outcomes.length ? ` Outcome: ${g.outcomes.map((o) => `\`${o}\``).join(", ")}.` : ""}`).join("\n")}

## Statuses (\`status\`)

${ENTRY_STATUSES.map((s) => `- \`${s}\`: ${entryStatusDescriptions[s]}`).join("\n")}

## Skip reasons (\`skipReason\`, only when \`status\` is \`skipped\`)

${SKIP_REASONS.map((r) => `- \`${r}\`: ${skipReasonDescriptions[r]}`).join("\n")}
`;
}

/** /problems.md: every REST problem type and every MCP tool error code, for agents (an MCP resource too). */
export function problemsMarkdown(base: string): string {
  return `# Errors of ${SERVICE_NAME}

## REST problem types (RFC 9457)

Failures of \`/api/v1\` and \`/api/tools\` are \`application/problem+json\` documents; \`type\` is one of these pages.

${Object.values(problemTable)
  .map((p) => `- [\`${base}/problems/${p.slug}\`](${base}/problems/${p.slug}) (${p.status}): **${p.title}.** ${p.explanation}`)
  .join("\n")}

## MCP tool error codes

A failed tool call is a result with \`isError: true\`; its text starts with \`Error <code>:\`, then one sentence and
\`Next step:\`, and \`_meta["io.direct-mail-programme/error"]\` holds \`{ code, message, nextStep, fields? }\`.

${TOOL_ERROR_CODES.map((c) => `- \`${c}\`: ${toolErrorDescriptions[c]}`).join("\n")}
`;
}
