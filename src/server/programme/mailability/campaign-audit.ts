import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { sharedFactsFor } from "./facts";
import { judgesLike } from "./judged-alike";
import { auditView } from "./service";
import { auditStaleness } from "./staleness";

/**
 * The audit that answers for a campaign: the newest finished audit of its audience, run for the
 * campaign or for the audience alone, that judged the format and address block as the campaign
 * does (an audience's own audit counts: no run again for the campaign); and why it no longer
 * describes what the campaign would mail, or null while it does.
 */
export async function auditForCampaign(db: Db, p: { workspaceId: string; campaignId: string; now?: Date }) {
  const shared = await sharedFactsFor(db, p);
  if (!shared.campaign)
    throw new AppError("not_found", "No such campaign in this workspace; campaigns_list shows them.");
  const audienceId = shared.campaign?.audienceId;
  if (!audienceId) return { audit: null, stale: null, ownRun: false };
  const rows = await db.mailabilityAudit.findMany({
    where: {
      workspaceId: p.workspaceId,
      audienceId,
      status: "succeeded",
      OR: [{ campaignId: p.campaignId }, { campaignId: null }],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 20,
  });
  const row = rows.find((a) => a.campaignId === p.campaignId || judgesLike(a, shared));
  if (!row) return { audit: null, stale: null, ownRun: false };
  const stale = await auditStaleness(db, {
    workspaceId: p.workspaceId,
    auditId: row.id,
    campaignId: p.campaignId,
    now: p.now,
  });
  return { audit: auditView(row), stale, ownRun: row.campaignId === p.campaignId };
}
