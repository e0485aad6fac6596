import { llmsTxt } from "@/server/doors/mcp/published/llms-txt";
import { textDocument } from "@/server/doors/mcp/published/responses";

export const dynamic = "force-dynamic";

/** llmstxt.org routing index of every published document. */
export const GET = textDocument(llmsTxt, "text/plain");
