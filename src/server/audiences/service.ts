import type { Db } from "@/server/db";

/** The workspace's audiences with their sizes (for choosing one). */
export async function listAudiences(db: Db, p: { workspaceId: string }) {
  const audiences = await db.audience.findMany({
    where: { workspaceId: p.workspaceId },
    orderBy: { createdAt: "desc" },
    select: { id: true, name: true, source: true, createdAt: true, _count: { select: { members: true } } },
  });
  return audiences.map(({ _count, ...a }) => ({ ...a, members: _count.members }));
}
