import { agentPolicyMarkdown } from "@/server/doors/mcp/published/policy-md";
import { authMarkdown } from "@/server/doors/mcp/published/auth-md";
import { mailabilityMarkdown } from "@/server/doors/mcp/published/mailability-md";
import { lifecycleMarkdown, problemsMarkdown } from "@/server/doors/mcp/published/reference-md";

/** The published documents an agent can read as MCP resources (same text as the web addresses). */
export const MCP_RESOURCES = [
  {
    name: "agent-policy",
    title: "Agent policy",
    description:
      "The rules an agent follows before any write: the confirmation gate, what to tell the person, data handling. Read it first.",
    mimeType: "text/markdown",
    uri: (base: string) => `${base}/agents/policy.md`,
    text: agentPolicyMarkdown,
  },
  {
    name: "agent-auth",
    title: "How agents get access",
    description: "The OAuth flow with browser consent, scopes, token lifetimes, and what API keys are for.",
    mimeType: "text/markdown",
    uri: (base: string) => `${base}/auth.md`,
    text: authMarkdown,
  },
  {
    name: "entry-lifecycle",
    title: "Entry lifecycle: gates, statuses and skip reasons",
    description:
      "What happens to an entry event after it is accepted: the gates in order, every status and every skip reason.",
    mimeType: "text/markdown",
    uri: (base: string) => `${base}/docs/lifecycle.md`,
    text: lifecycleMarkdown,
  },
  {
    name: "mailability-reasons",
    title: "Mailability: statuses and reasons",
    description:
      "Every reason the mailability audit (audits_get) and entry_events_get's mailabilityReasons name: what it means, what it stops, what to do; verification and the lifecycle's use of the verdict.",
    mimeType: "text/markdown",
    uri: (base: string) => `${base}/docs/mailability.md`,
    text: mailabilityMarkdown,
  },
  {
    name: "errors",
    title: "Errors: REST problem types and tool error codes",
    description: "Every problem type of the REST API and every error code a tool answers with, with what to do next.",
    mimeType: "text/markdown",
    uri: (base: string) => `${base}/problems.md`,
    text: problemsMarkdown,
  },
] as const;
