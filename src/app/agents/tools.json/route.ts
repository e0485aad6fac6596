import { jsonDocument } from "@/server/doors/mcp/published/responses";
import { toolCatalogue } from "@/server/doors/mcp/listing";

export const dynamic = "force-dynamic";

/** Every MCP tool in full: input and result schemas, the result envelope and card block once. */
export const GET = jsonDocument(toolCatalogue);
