import { authMarkdown } from "@/server/mcp/published/auth-md";
import { textDocument } from "@/server/mcp/published/responses";

export const dynamic = "force-dynamic";

/** How an agent gets access. */
export const GET = textDocument(authMarkdown, "text/markdown");
