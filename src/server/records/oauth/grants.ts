import type { PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";

/** Settings -> Connected agents: each live grant of the workspace, newest first. */
export async function listGrants(db: Db, p: { workspaceId: string }) {
  const grants = await db.oAuthGrant.findMany({
    where: { workspaceId: p.workspaceId, revokedAt: null },
    include: { client: true },
    orderBy: { createdAt: "desc" },
  });
  return grants.map((g) => ({
    id: g.id,
    clientName: g.client.name,
    clientId: g.client.clientId,
    redirectHosts: [...new Set(g.client.redirectUris.map((u) => safeHost(u)))],
    scopes: g.scopes,
    createdAt: g.createdAt,
    lastUsedAt: g.lastUsedAt,
  }));
}

function safeHost(uri: string) {
  try {
    return new URL(uri).host || uri;
  } catch {
    return uri;
  }
}

/** Revokes a grant and every token it issued, at once. */
export async function revokeGrant(
  prisma: PrismaClient,
  p: { workspaceId: string; grantId: string; actor: Actor; now?: Date },
) {
  const now = p.now ?? new Date();
  return prisma.$transaction(async (tx) => {
    const grant = await tx.oAuthGrant.findFirst({
      where: { id: p.grantId, workspaceId: p.workspaceId },
      include: { client: true },
    });
    if (!grant) throw new AppError("not_found", "No such connected agent.");
    if (grant.revokedAt) return { id: grant.id, revokedAt: grant.revokedAt };
    await tx.oAuthGrant.update({ where: { id: grant.id }, data: { revokedAt: now } });
    await tx.oAuthToken.updateMany({ where: { grantId: grant.id, revokedAt: null }, data: { revokedAt: now } });
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      "agent.grant.revoked",
      { type: "oauth_grant", id: grant.id },
      { client: grant.client.name },
    );
    return { id: grant.id, revokedAt: now };
  });
}
