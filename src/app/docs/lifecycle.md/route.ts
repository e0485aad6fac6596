import { lifecycleMarkdown } from "@/server/doors/mcp/published/reference-md";
import { textDocument } from "@/server/doors/mcp/published/responses";

export const dynamic = "force-dynamic";

/** The entry lifecycle as Markdown (also the MCP resource of the same address). */
export const GET = textDocument(lifecycleMarkdown, "text/markdown");
