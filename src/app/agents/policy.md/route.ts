import { agentPolicyMarkdown } from "@/server/docs/published/policy-md";
import { textDocument } from "@/server/docs/published/responses";

export const dynamic = "force-dynamic";

/** The rules an agent follows before any write. */
export const GET = textDocument(agentPolicyMarkdown, "text/markdown");
