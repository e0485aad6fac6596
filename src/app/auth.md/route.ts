import { authMarkdown } from "@/server/docs/published/auth-md";
import { textDocument } from "@/server/docs/published/responses";

export const dynamic = "force-dynamic";

/** How an agent gets access. */
export const GET = textDocument(authMarkdown, "text/markdown");
