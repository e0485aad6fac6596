import { mailabilityMarkdown } from "@/server/mcp/published/mailability-md";
import { textDocument } from "@/server/mcp/published/responses";

export const dynamic = "force-dynamic";

/** The mailability reasons as Markdown (also the MCP resource of the same address). */
export const GET = textDocument(mailabilityMarkdown, "text/markdown");
