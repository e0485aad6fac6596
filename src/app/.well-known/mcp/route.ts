import { jsonDocument } from "@/server/doors/mcp/published/responses";
import { serverCard } from "@/server/doors/mcp/published/server-card";

export const dynamic = "force-dynamic";

/** The MCP server card (SEP-2127 draft). */
export const GET = jsonDocument(serverCard);
