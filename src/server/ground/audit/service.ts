import type { ActorKind, Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";

export interface Actor {
  kind: ActorKind;
  id: string | null;
  label: string;
}

export const systemActor: Actor = { kind: "system", id: null, label: "Direct Mail service" };

/** Appends one entry to the workspace's audit log (in the caller's transaction when given one). */
export function recordAudit(
  db: Db,
  workspaceId: string,
  actor: Actor,
  action: string,
  target?: { type: string; id: string },
  data: Prisma.InputJsonValue = {},
) {
  return db.auditLogEntry.create({
    data: {
      workspaceId,
      actorKind: actor.kind,
      actorId: actor.id,
      actorLabel: actor.label,
      action,
      targetType: target?.type,
      targetId: target?.id,
      data,
    },
  });
}
