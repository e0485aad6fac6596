/**
 * The production server, `npm start`: the production build served by Next.js, except the
 * workspace REST API (/api/v1) and the calculators (/api/tools), which node:http hands straight
 * to their handlers (src/server/http/direct-doors.ts). Those are the same handlers the App Router
 * routes call, so `next dev` and `next start` answer the same; this server only skips Next's
 * per-request machinery, which costs more than an /api/v1 call itself (README, Benchmarks).
 * PORT (default 3000) sets the port; it listens on every interface, as `next start` does.
 */
import http from "node:http";
import { directDoorsReady } from "../src/server/http/door-registry";

Object.assign(process.env, { NODE_ENV: "production" });
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

const server = http.createServer((req, res) => {
  if (doors.serve(req, res)) return;
  void handle(req, res);
});
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
