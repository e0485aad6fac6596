import { jsonDocument } from "@/server/docs/published/responses";
import { serverCatalog } from "@/server/docs/published/server-card";

export const dynamic = "force-dynamic";

/** The MCP servers of this site, each linking its server card. */
export const GET = jsonDocument(serverCatalog);
