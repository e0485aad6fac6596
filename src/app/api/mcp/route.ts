import { handleMcpRequest } from "@/server/doors/mcp/handler";

export const dynamic = "force-dynamic";

/** The MCP server (Streamable HTTP, stateless, OAuth bearer tokens). */
export const POST = handleMcpRequest;

/** Stateless: there is no server-to-client stream to open (GET) and no session to end (DELETE); nothing else is taken either. */
function methodNotAllowed() {
  return Response.json(
    {
      jsonrpc: "2.0",
      error: { code: -32000, message: "This MCP server is stateless: send requests with POST." },
      id: null,
    },
    { status: 405, headers: { Allow: "POST" } },
  );
}
export const GET = methodNotAllowed;
export const DELETE = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
