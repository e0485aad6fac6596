/**
 * The bare reference for `npm run bench:api`: a plain node:http server doing the same validated
 * entry-event insert as POST /api/v1/campaigns/{id}/events (key lookup, rate-limit count, zod
 * validation with the same schema, campaign, idempotency, contact and audience checks, one
 * insert), with `pg` and no framework. Usage: DATABASE_URL=... PORT=... tsx reference-server.ts
 */
import { createHash, randomUUID } from "node:crypto";
import http from "node:http";
import pg from "pg";
import { ZPostEntryEventInput } from "@/server/entry/schema";
import { fingerprint } from "@/server/platform/fingerprint";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const route = /^\/api\/v1\/campaigns\/([^/]+)\/events$/;

function send(res: http.ServerResponse, status: number, body: unknown, type = "application/json") {
  res.writeHead(status, { "Content-Type": type });
  res.end(JSON.stringify(body));
}

async function accept(req: http.IncomingMessage, campaignId: string, raw: string) {
  const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1];
  if (!token) return [401, { title: "unauthenticated" }] as const;
  const hash = createHash("sha256").update(token).digest("hex");
  const key = (await pool.query(`SELECT id, "workspaceId", scopes::text[] AS scopes, "revokedAt", "lastUsedAt" FROM "ApiKey" WHERE hash = $1`, [hash])).rows[0];
  if (!key || key.revokedAt) return [401, { title: "unauthenticated" }] as const;
  if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() >= 60_000) {
    await pool.query(`UPDATE "ApiKey" SET "lastUsedAt" = now() WHERE id = $1 AND ("lastUsedAt" IS NULL OR "lastUsedAt" <= now() - interval '1 minute')`, [key.id]);
  }
  const windowStart = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const count = (
    await pool.query(
      `INSERT INTO "RateLimitCounter" ("bucket", "windowStart", "count", "expiresAt") VALUES ($1, $2, 1, $3)
       ON CONFLICT ("bucket", "windowStart") DO UPDATE SET "count" = "RateLimitCounter"."count" + 1 RETURNING "count"`,
      [`ref:${key.id}`, windowStart, new Date(windowStart.getTime() + 60_000)],
    )
  ).rows[0].count;
  if (count > 60) return [429, { title: "rate limited" }] as const;
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
  const ws = key.workspaceId;
  const campaign = (await pool.query(`SELECT id, status, "acceptsApiEvents", "audienceId" FROM "Campaign" WHERE id = $1 AND "workspaceId" = $2`, [campaignId, ws])).rows[0];
  if (!campaign) return [404, { title: "not found" }] as const;
  const occurredAt = input.occurredAt ? new Date(input.occurredAt) : null;
  const print = fingerprint({ campaignId, contactId: input.contactId, occurredAt: occurredAt?.toISOString() });
  const existing = (await pool.query(`SELECT id, status, fingerprint FROM "EntryEvent" WHERE "workspaceId" = $1 AND "idempotencyKey" = $2`, [ws, input.idempotencyKey])).rows[0];
  if (existing) return existing.fingerprint === print ? ([202, { eventId: existing.id, status: existing.status }] as const) : ([409, { title: "conflict" }] as const);
  if (campaign.status !== "live") return [409, { title: "not live" }] as const;
  if (!campaign.acceptsApiEvents) return [409, { title: "policy" }] as const;
  const contact = (await pool.query(`SELECT id FROM "Contact" WHERE id = $1 AND "workspaceId" = $2`, [input.contactId, ws])).rows[0];
  if (!contact) return [422, { title: "contact" }] as const;
  const member = (await pool.query(`SELECT 1 FROM "AudienceMember" WHERE "audienceId" = $1 AND "contactId" = $2`, [campaign.audienceId, contact.id])).rows[0];
  if (!member) return [422, { title: "audience" }] as const;
  const inserted = (
    await pool.query(
      `INSERT INTO "EntryEvent" (id, "workspaceId", "campaignId", "contactId", source, "apiKeyId", "idempotencyKey", fingerprint, "occurredAt", "updatedAt")
       VALUES ($1, $2, $3, $4, 'api', $5, $6, $7, $8, now()) ON CONFLICT ("workspaceId", "idempotencyKey") DO NOTHING RETURNING id, status`,
      [`evt_${randomUUID().replace(/-/g, "")}`, ws, campaignId, contact.id, key.id, input.idempotencyKey, print, occurredAt ?? new Date()],
    )
  ).rows[0];
  return inserted ? ([202, { eventId: inserted.id, status: inserted.status }] as const) : ([409, { title: "raced" }] as const);
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
