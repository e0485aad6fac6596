import { jsonDocument } from "@/server/doors/mcp/published/responses";
import { serverCatalog } from "@/server/doors/mcp/published/server-card";

export const dynamic = "force-dynamic";

/** The MCP servers of this site, each linking its server card. */
export const GET = jsonDocument(serverCatalog);
