import { mailabilityMarkdown } from "@/server/doors/mcp/published/mailability-md";
import { textDocument } from "@/server/doors/mcp/published/responses";

export const dynamic = "force-dynamic";

/** The mailability reasons as Markdown (also the MCP resource of the same address). */
export const GET = textDocument(mailabilityMarkdown, "text/markdown");
