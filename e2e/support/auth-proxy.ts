import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local proxy that adds an agent's bearer token to every request, for tools that cannot send
 * one (the MCP conformance suite). A request addressed to the proxy itself is re-addressed to the
 * app (Host, and Origin when it is the proxy's own); any other Host or Origin (the DNS-rebinding
 * scenario's) is passed through unchanged.
 */
export async function startAuthProxy(target: string, token: string) {
  const targetUrl = new URL(target);
  let own = "";
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    if (!req.headers.host || req.headers.host === own) headers.host = targetUrl.host;
    if (req.headers.origin === `http://${own}`) headers.origin = targetUrl.origin;
    const upstream = http.request(
      { hostname: targetUrl.hostname, port: targetUrl.port, path: req.url, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  own = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `http://${own}/api/mcp`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
