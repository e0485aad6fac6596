import { randomBytes } from "node:crypto";
import type { Plan, PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { REALLY_MAILED, SIMULATED_MAILED } from "@/server/records/campaign-records/reached-pieces";

export function slugify(name: string): string {
  const base = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 40);
  return `${base || "workspace"}-${randomBytes(3).toString("hex")}`;
}

/** Creates a workspace with the user as its owner. New workspaces start on the free audit plan. */
export async function createWorkspace(
  db: Db,
  params: { name: string; ownerId: string; actor: Actor; plan?: Plan; slug?: string; isDemo?: boolean },
) {
  const workspace = await db.workspace.create({
    data: {
      name: params.name,
      slug: params.slug ?? slugify(params.name),
      plan: params.plan ?? "audit",
      isDemo: params.isDemo ?? false,
      memberships: { create: { userId: params.ownerId, role: "owner" } },
    },
  });
  await recordAudit(
    db,
    workspace.id,
    params.actor,
    "workspace.created",
    { type: "workspace", id: workspace.id },
    {
      plan: workspace.plan,
    },
  );
  return workspace;
}

/** The workspaces a user belongs to, oldest first. */
export function listWorkspacesOf(db: Db, userId: string) {
  return db.membership.findMany({
    where: { userId },
    orderBy: { createdAt: "asc" },
    select: { role: true, workspace: { select: { id: true, name: true, plan: true, slug: true } } },
  });
}

/** What the owner (or an agent) sees first: the plan, what it allows, and how much is there. */
export async function getWorkspaceSummary(db: Db, params: { workspaceId: string }) {
  const { workspaceId } = params;
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: workspaceId } });
  const [contacts, accounts, audiences, campaignsByStatus, activeKeys, pieces, simulated] = await Promise.all([
    db.contact.count({ where: { workspaceId } }),
    db.account.count({ where: { workspaceId } }),
    db.audience.count({ where: { workspaceId } }),
    db.campaign.groupBy({ by: ["status"], where: { workspaceId }, _count: { _all: true } }),
    db.apiKey.count({ where: { workspaceId, revokedAt: null } }),
    db.mailPiece.count({ where: { workspaceId, ...REALLY_MAILED } }),
    db.mailPiece.count({ where: { workspaceId, ...SIMULATED_MAILED } }),
  ]);
  const campaigns = { draft: 0, live: 0, paused: 0, ended: 0 };
  for (const row of campaignsByStatus) campaigns[row.status] = row._count._all;
  return {
    id: workspace.id,
    name: workspace.name,
    plan: workspace.plan,
    /** On the audit plan nothing can reach a mailbox; everything else works. */
    mailingEnabled: workspace.plan === "paid",
    /** The share of accounts (0 to 0.5) no campaign mails, to measure the programme: all mail against none. */
    programmeHoldoutShare: workspace.programmeHoldoutShare,
    counts: {
      contacts,
      accounts,
      audiences,
      activeApiKeys: activeKeys,
      /** Mailed to a real person: a real vendor's pieces printed with a live key. */
      piecesMailed: pieces,
      /** Through every step but to nobody's mailbox: the sandbox's pieces and a vendor's test-mode ones. */
      piecesSimulated: simulated,
      campaigns,
    },
  };
}

export type TWorkspaceSummary = Awaited<ReturnType<typeof getWorkspaceSummary>>;

export async function createWorkspaceForUser(
  prisma: PrismaClient,
  params: { name: string; userId: string; actor: Actor },
) {
  return prisma.$transaction((tx) =>
    createWorkspace(tx, { name: params.name, ownerId: params.userId, actor: params.actor }),
  );
}
