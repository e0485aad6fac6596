/**
 * The bare reference for `npm run bench:api`: a plain node:http server doing the same database
 * work as POST /api/v1/campaigns/{id}/events, with `pg` and no framework: the same two prepared
 * statements, built by the same functions (the key, the rate-limit count and the key's use in
 * one; the preconditions and the idempotent insert in the other), and the same zod validation in
 * between. So the comparison shows only the service's own overhead (routing, the Web Request and
 * Response, tRPC and trpc-to-openapi, problem documents and headers). Usage: DATABASE_URL=...
 * PORT=... tsx reference-server.ts
 */
import http from "node:http";
import pg from "pg";
import type { Prisma } from "@/generated/prisma/client";
import { ZPostEntryEventInput } from "@/server/programme/entry/schema";
import {
  ACCEPTANCE_STATEMENT,
  type AcceptanceRow,
  acceptanceSql,
  outcomeOf,
} from "@/server/programme/entry/acceptance-queries";
import { fingerprint } from "@/server/ground/platform/fingerprint";
import {
  ADMISSION_STATEMENT,
  type AdmissionRow,
  admissionOf,
  admissionSql,
  secretHash,
} from "@/server/doors/rest/admission";

// The service's pool size (DATABASE_POOL_SIZE, default 10).
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});
const route = /^\/api\/v1\/campaigns\/([^/]+)\/events$/;

function send(res: http.ServerResponse, status: number, body: unknown, type = "application/json") {
  res.writeHead(status, { "Content-Type": type });
  res.end(JSON.stringify(body));
}

async function prepared<T>(name: string, sql: Prisma.Sql): Promise<T | undefined> {
  return (await pool.query({ name, text: sql.text, values: sql.values })).rows[0] as T | undefined;
}

async function accept(req: http.IncomingMessage, campaignId: string, raw: string) {
  const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1] ?? null;
  const now = new Date();
  const address = req.socket.remoteAddress ?? "unknown";
  const admitted = await prepared<AdmissionRow>(
    ADMISSION_STATEMENT,
    admissionSql({ hash: secretHash(token), operationId: "postEntryEvent", address, now }),
  );
  const { key, decision } = admissionOf(admitted!, now);
  if (!decision.allowed) return [429, { title: "rate limited" }] as const;
  if (!key) return [401, { title: "unauthenticated" }] as const;
  if (!key.scopes.includes("post_entry_events")) return [403, { title: "insufficient scope" }] as const;
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return [400, { title: "malformed" }] as const;
  }
  const parsed = ZPostEntryEventInput.safeParse({ ...(body as object), campaignId });
  if (!parsed.success) return [422, { errors: parsed.error.issues }] as const;
  const input = parsed.data;
  const occurredAt = input.occurredAt ? new Date(input.occurredAt) : null;
  const print = fingerprint({ campaignId, contactId: input.contactId, occurredAt: occurredAt?.toISOString() });
  const outcome = outcomeOf(
    await prepared<AcceptanceRow>(
      ACCEPTANCE_STATEMENT,
      acceptanceSql({
        workspaceId: key.workspaceId,
        campaignId,
        contactId: input.contactId,
        source: "api",
        apiKeyId: key.id,
        idempotencyKey: input.idempotencyKey,
        fingerprint: print,
        occurredAt: occurredAt ?? now,
        now,
      }),
    ),
  );
  if (!outcome) return [404, { title: "not found" }] as const;
  if (outcome.existing) {
    return outcome.existing.fingerprint === print
      ? ([202, { eventId: outcome.existing.id, status: outcome.existing.status }] as const)
      : ([409, { title: "conflict" }] as const);
  }
  if (outcome.campaignStatus !== "live") return [409, { title: "not live" }] as const;
  if (!outcome.acceptsApiEvents) return [409, { title: "policy" }] as const;
  if (!outcome.contactExists) return [422, { title: "contact" }] as const;
  if (!outcome.isMember) return [422, { title: "audience" }] as const;
  return outcome.inserted
    ? ([202, { eventId: outcome.inserted.id, status: outcome.inserted.status }] as const)
    : ([409, { title: "raced" }] as const);
}

http
  .createServer((req, res) => {
    if (req.url === "/api/health") return send(res, 200, { status: "ok" });
    const match = req.method === "POST" ? route.exec(req.url ?? "") : null;
    if (!match) return send(res, 404, { title: "not found" });
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      accept(req, decodeURIComponent(match[1]), raw).then(
        ([status, body]) => send(res, status, body),
        (error) => {
          console.error(error);
          send(res, 500, { title: "internal" });
        },
      );
    });
  })
  .listen(Number(process.env.PORT ?? 3401));
// Exit on SIGTERM as the service does (a CPU profile, BENCH_CPU_PROFILE, is written only on a clean exit).
process.once("SIGTERM", () => process.exit(0));
