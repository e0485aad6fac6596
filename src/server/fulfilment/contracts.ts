import type { Db } from "@/server/db";

/** The workspace's print contracts (for choosing one for a campaign). */
export function listContracts(db: Db, p: { workspaceId: string }) {
  return db.fulfilmentContract.findMany({
    where: { workspaceId: p.workspaceId },
    orderBy: { createdAt: "asc" },
    select: { id: true, name: true, vendor: true, format: true, unitCostCents: true, status: true },
  });
}
