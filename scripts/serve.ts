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
import { parseTrustProxy, type TrustProxy } from "../src/server/ground/http/client-address";
import { directDoorsReady } from "../src/server/runtime/door-registry";
import { frontDoor } from "../src/server/runtime/front-door";
import { answerClientError } from "../src/server/ground/http/methods";
import { databaseTarget } from "../src/server/ground/platform/config";
import { tuneHeapGrowth } from "../src/server/ground/platform/heap";
import { startWorkerProcess, type WorkerProcess } from "./worker-process";

Object.assign(process.env, { NODE_ENV: "production" });
let trust: TrustProxy;
let workerProcess = false;
try {
  tuneHeapGrowth();
  trust = parseTrustProxy(process.env.TRUST_PROXY);
  workerProcess = backgroundWorkInOwnProcess();
  // The boot (src/server/runtime/boot.ts) then leaves the background work to that process.
  if (workerProcess) process.env.WORKER = "process";
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
    fs.appendFileSync(
      errorLog,
      `${JSON.stringify({ at: new Date().toISOString(), uncaughtException: String((error as Error)?.stack ?? error).slice(0, 2000) })}\n`,
    );
  });
}
const server = http.createServer((req, res) => {
  res.once("finish", () => {
    if (res.statusCode < 500) return;
    const line = {
      at: new Date().toISOString(),
      status: res.statusCode,
      method: req.method,
      path: (req.url ?? "").split("?")[0].slice(0, 300),
    };
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
let worker: WorkerProcess | null = null;
server.listen(port, () => {
  console.log(`Serving on http://localhost:${port} (${doors.prefixes.join(" and ")} answered directly).`);
  if (!workerProcess) return;
  startWorkerProcess((line) => console.error(`[serve] ${line}`))
    .then((started) => {
      worker = started;
      console.log(
        "[serve] The background work runs in a worker process beside this server (WORKER=inline keeps it in this process).",
      );
    })
    .catch((error) => {
      console.error("The server cannot start its worker process:", error);
      process.exit(1);
    });
});

/**
 * Whether the background work gets a process of its own: by default on PostgreSQL (WORKER unset or
 * `process`); never on the embedded database, which lives inside this process. WORKER=inline keeps
 * it in the server, WORKER=off leaves it to `npm run worker` processes.
 */
function backgroundWorkInOwnProcess(): boolean {
  const setting = process.env.WORKER?.trim().toLowerCase() ?? "";
  const postgres = databaseTarget().kind === "postgres";
  if (setting === "process" && !postgres)
    throw new Error(
      "WORKER=process needs DATABASE_URL: the embedded database lives inside the server, so its background work runs there too.",
    );
  return postgres && (setting === "" || setting === "process");
}

function shutDown() {
  // The worker process first (it finishes what it holds; never started again once stopping), while
  // the server stops taking requests and finishes those in hand.
  const workerStopped = worker?.stop() ?? Promise.resolve();
  server.close(() => void workerStopped.then(() => process.exit(0)));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 35_000).unref();
}
process.once("SIGTERM", shutDown);
process.once("SIGINT", shutDown);
