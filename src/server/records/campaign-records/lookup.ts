import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";

/** The campaign of the workspace, or not found (also for another workspace's campaign). */
export async function requireCampaign(db: Db, p: { workspaceId: string; campaignId: string }) {
  const campaign = await db.campaign.findFirst({ where: { id: p.campaignId, workspaceId: p.workspaceId } });
  if (!campaign) throw new AppError("not_found", "No such campaign.");
  return campaign;
}
