import { agentPolicyMarkdown } from "@/server/doors/mcp/published/policy-md";
import { textDocument } from "@/server/doors/mcp/published/responses";

export const dynamic = "force-dynamic";

/** The rules an agent follows before any write. */
export const GET = textDocument(agentPolicyMarkdown, "text/markdown");
