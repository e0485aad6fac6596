import type { Db } from "@/server/ground/db";
import { notify } from "./notifications";
import { budgetStoppedEmail, vendorConnectionFailedEmail } from "./templates/notifications";

/**
 * A live campaign skipped an entry for want of budget: the people who may raise it hear once per
 * budget (raising it and running out again tells them again).
 */
export async function notifyBudgetStopped(db: Db, p: { workspaceId: string; campaignId: string }) {
  const campaign = await db.campaign.findUnique({
    where: { id: p.campaignId },
    select: { id: true, name: true, budgetCents: true },
  });
  if (!campaign) return 0;
  const budgetCents = campaign.budgetCents;
  return notify(db, {
    workspaceId: p.workspaceId,
    kind: "campaign_budget_stopped",
    subjectKey: `${campaign.id}:${budgetCents}`,
    render: (r) =>
      budgetStoppedEmail({
        workspaceId: p.workspaceId,
        workspaceName: r.workspaceName,
        role: r.role,
        campaign: { id: campaign.id, name: campaign.name, budgetCents },
      }),
  });
}

/** A print vendor or a CRM refused the saved credentials (the caller marks the connection once). */
export function notifyVendorConnectionFailed(
  db: Db,
  p: { workspaceId: string; connectionId: string; vendor: string; reason: string; settingsPath: string; at?: Date },
) {
  return notify(db, {
    workspaceId: p.workspaceId,
    kind: "vendor_connection_failed",
    subjectKey: `${p.connectionId}:${(p.at ?? new Date()).getTime()}`,
    render: (r) =>
      vendorConnectionFailedEmail({
        workspaceId: p.workspaceId,
        workspaceName: r.workspaceName,
        role: r.role,
        vendor: p.vendor,
        reason: p.reason,
        settingsPath: p.settingsPath,
      }),
  });
}
