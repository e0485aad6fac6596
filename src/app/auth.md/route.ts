import { authMarkdown } from "@/server/doors/mcp/published/auth-md";
import { textDocument } from "@/server/doors/mcp/published/responses";

export const dynamic = "force-dynamic";

/** How an agent gets access. */
export const GET = textDocument(authMarkdown, "text/markdown");
