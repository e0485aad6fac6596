import type { PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { randomBase62 } from "@/server/ground/platform/random";
import type { TApiKeyScope } from "@/server/ground/access/principals";
import { API_KEY_BODY_LENGTH, API_KEY_PREFIX, displayStart, hashApiKey } from "./secret";

const keyListSelect = {
  id: true,
  name: true,
  start: true,
  scopes: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

/**
 * Makes a key for the workspace. The secret is returned once, here; only its SHA-256 hash and its
 * first characters are stored.
 */
export async function createApiKey(
  prisma: PrismaClient,
  params: { workspaceId: string; name: string; scopes: TApiKeyScope[]; actor: Actor },
) {
  const secret = `${API_KEY_PREFIX}${randomBase62(API_KEY_BODY_LENGTH)}`;
  const scopes = [...new Set(params.scopes)];
  return prisma.$transaction(async (tx) => {
    const key = await tx.apiKey.create({
      data: {
        workspaceId: params.workspaceId,
        name: params.name,
        hash: hashApiKey(secret),
        start: displayStart(secret),
        scopes,
        createdByUserId: params.actor.kind === "user" ? params.actor.id : null,
      },
      select: keyListSelect,
    });
    await recordAudit(
      tx,
      params.workspaceId,
      params.actor,
      "api_key.created",
      { type: "api_key", id: key.id },
      { name: key.name, scopes },
    );
    return { key, secret };
  });
}

/** The workspace's keys, newest first, active before revoked. Never the secret. */
export function listApiKeys(db: Db, params: { workspaceId: string }) {
  return db.apiKey.findMany({
    where: { workspaceId: params.workspaceId },
    orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }],
    select: keyListSelect,
  });
}

/** Revokes a key of the workspace; it stops working at once. Revoking twice changes nothing. */
export async function revokeApiKey(prisma: PrismaClient, params: { workspaceId: string; keyId: string; actor: Actor }) {
  return prisma.$transaction(async (tx) => {
    const key = await tx.apiKey.findFirst({
      where: { id: params.keyId, workspaceId: params.workspaceId },
      select: keyListSelect,
    });
    if (!key) throw new AppError("not_found", "No such API key.");
    if (key.revokedAt) return key;
    const revoked = await tx.apiKey.update({
      where: { id: key.id, workspaceId: params.workspaceId },
      data: { revokedAt: new Date(), revokedByUserId: params.actor.kind === "user" ? params.actor.id : null },
      select: keyListSelect,
    });
    await recordAudit(
      tx,
      params.workspaceId,
      params.actor,
      "api_key.revoked",
      { type: "api_key", id: key.id },
      { name: key.name },
    );
    return revoked;
  });
}
