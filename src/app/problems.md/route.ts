import { problemsMarkdown } from "@/server/doors/mcp/published/reference-md";
import { textDocument } from "@/server/doors/mcp/published/responses";

export const dynamic = "force-dynamic";

/** Every REST problem type and MCP tool error code as Markdown (also the MCP resource of the same address). */
export const GET = textDocument(problemsMarkdown, "text/markdown");
