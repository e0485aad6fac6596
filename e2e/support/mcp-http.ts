/** What a plain HTTP client sends to the MCP endpoint: it takes JSON or one server-sent event. */
export const MCP_HEADERS = { Accept: "application/json, text/event-stream", "Content-Type": "application/json" };

/** A JSON-RPC answer, whether the server sent it as JSON or as one server-sent event. */
export async function rpc(res: { text(): Promise<string> }) {
  const text = await res.text();
  const data = text.startsWith("{")
    ? text
    : (text
        .split("\n")
        .find((l) => l.startsWith("data: "))
        ?.slice(6) ?? "{}");
  return JSON.parse(data);
}
