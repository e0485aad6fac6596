/**
 * The production server, `npm start`: the production build served by Next.js, except the
 * workspace REST API (/api/v1) and the calculators (/api/tools), which node:http hands straight
 * to their handlers (src/server/runtime/direct-doors.ts). Those are the same handlers the App Router
 * routes call, so `next dev` and `next start` answer the same; this server only skips Next's
 * per-request machinery, which costs more than an /api/v1 call itself (docs/benchmarks.md).
 * PORT (default 3000) sets the port; it listens on every interface, as `next start` does. Every
 * request first passes src/server/runtime/front-door.ts: the client's address from the connection
 * (TRUST_PROXY names the proxies allowed to report another), and 405 for methods no route takes.
 */
import fs from "node:fs";
import http from "node:http";
import { parseTrustProxy, type TrustProxy } from "../src/server/http/client-address";
import { directDoorsReady } from "../src/server/runtime/door-registry";
import { frontDoor } from "../src/server/runtime/front-door";
import { answerClientError } from "../src/server/http/methods";
import { tuneHeapGrowth } from "../src/server/platform/heap";

Object.assign(process.env, { NODE_ENV: "production" });
let trust: TrustProxy;
try {
  tuneHeapGrowth();
  trust = parseTrustProxy(process.env.TRUST_PROXY);
} catch (error) {
  console.error(`The server cannot start: ${(error as Error).message}`);
  process.exit(1);
}
const { default: next } = await import("next");

const port = Number(process.env.PORT ?? 3000);
const app = next({ dev: false, port, hostname: "localhost" });
const handle = app.getRequestHandler();
await app.prepare();
// src/instrumentation.ts boots the service (migrations, demo data, the inline worker), then publishes the doors.
const doors = await directDoorsReady().catch((error) => {
  console.error("The server cannot start:", error);
  process.exit(1);
});

// Every request: the client's address (TRUST_PROXY), unknown methods refused, then the API doors or Next.
const serve = frontDoor({ trust, doors, next: (req, res) => void handle(req, res) });
// A 5xx is a failure of the service: each is logged in one line (and, with SERVER_ERROR_LOG, appended
// to that file as JSON, as is every uncaught exception).
const errorLog = process.env.SERVER_ERROR_LOG;
if (errorLog) {
  // An exception outside any request (Next logs it and carries on) counts as a failure too.
  process.on("uncaughtException", (error: unknown) => {
    fs.appendFileSync(errorLog, `${JSON.stringify({ at: new Date().toISOString(), uncaughtException: String((error as Error)?.stack ?? error).slice(0, 2000) })}\n`);
  });
}
const server = http.createServer((req, res) => {
  res.once("finish", () => {
    if (res.statusCode < 500) return;
    const line = { at: new Date().toISOString(), status: res.statusCode, method: req.method, path: (req.url ?? "").split("?")[0].slice(0, 300) };
    console.error(`[http] ${line.status} ${line.method} ${line.path}`);
    if (errorLog) fs.appendFileSync(errorLog, `${JSON.stringify(line)}\n`);
  });
  serve(req, res);
});
// What Node's parser refuses (unparseable methods, oversized headers) is answered as a problem document too.
server.on("clientError", answerClientError);
// Idle keep-alive connections stay open longer than a load balancer's (60 s is common), so a
// client never sends a request on a connection the server is closing at that moment (ECONNRESET).
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
server.listen(port, () => {
  console.log(`Serving on http://localhost:${port} (${doors.prefixes.join(" and ")} answered directly).`);
});

function shutDown() {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 5000).unref();
}
process.once("SIGTERM", shutDown);
process.once("SIGINT", shutDown);
