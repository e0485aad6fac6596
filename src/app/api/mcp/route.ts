import { handleMcpRequest } from "@/server/mcp/handler";

export const dynamic = "force-dynamic";

/** The MCP server (Streamable HTTP, stateless, OAuth bearer tokens). */
export const GET = handleMcpRequest;
export const POST = handleMcpRequest;
export const DELETE = handleMcpRequest;
