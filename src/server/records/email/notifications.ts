import type { EmailKind, MembershipRole } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { enqueueEmail } from "./outbox";
import type { RenderedEmail } from "./templates/rendered";

/** The notifications a person may turn off, in the order Settings → Notifications lists them. */
export const NOTIFICATION_KINDS = [
  "card_waiting",
  "campaign_budget_stopped",
  "vendor_connection_failed",
  "weekly_summary",
] as const satisfies readonly EmailKind[];
export type TNotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Who hears of each kind, by role (read from Membership.role); a viewer or member never hears of a card. */
const ROLES: Record<TNotificationKind, MembershipRole[]> = {
  card_waiting: ["owner", "admin", "approver"],
  campaign_budget_stopped: ["owner", "admin", "approver"],
  vendor_connection_failed: ["owner", "admin"],
  weekly_summary: ["owner", "admin", "approver", "member"],
};

export interface Recipient {
  userId: string;
  email: string;
  role: MembershipRole;
}

/**
 * The people of the workspace who get `kind`: by role, minus those who turned it off. For a card,
 * an approver only when their approvalLimitCents covers `amountCents` (or they have no limit).
 */
export async function notificationRecipients(
  db: Db,
  workspaceId: string,
  kind: TNotificationKind,
  opts: { amountCents?: number | null } = {},
): Promise<Recipient[]> {
  const memberships = await db.membership.findMany({
    where: { workspaceId, role: { in: ROLES[kind] } },
    select: {
      role: true,
      approvalLimitCents: true,
      user: { select: { id: true, email: true, notificationsOff: true } },
    },
    orderBy: { createdAt: "asc" },
  });
  return memberships
    .filter((m) => !m.user.notificationsOff.includes(kind))
    .filter(
      (m) =>
        kind !== "card_waiting" ||
        m.role !== "approver" ||
        m.approvalLimitCents == null ||
        opts.amountCents == null ||
        opts.amountCents <= m.approvalLimitCents,
    )
    .map((m) => ({ userId: m.user.id, email: m.user.email, role: m.role }));
}

/**
 * Queues `kind` for each recipient, in the caller's transaction (so the email exists exactly when
 * the event does). `render` makes each person's message; `subjectKey` makes one message per person
 * per subject (a second call for the same card or the same stop is a no-op).
 */
export async function notify(
  db: Db,
  p: {
    workspaceId: string;
    kind: TNotificationKind;
    subjectKey: string;
    amountCents?: number | null;
    render: (r: Recipient & { workspaceName: string }) => RenderedEmail;
  },
): Promise<number> {
  const recipients = await notificationRecipients(db, p.workspaceId, p.kind, { amountCents: p.amountCents });
  if (recipients.length === 0) return 0;
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: p.workspaceId }, select: { name: true } });
  let queued = 0;
  for (const r of recipients) {
    const message = await enqueueEmail(db, {
      to: r.email,
      userId: r.userId,
      workspaceId: p.workspaceId,
      dedupeKey: `${p.kind}:${p.subjectKey}:${r.userId}`,
      ...p.render({ ...r, workspaceName: workspace.name }),
    });
    if (message) queued++;
  }
  return queued;
}
