import type { Campaign } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { firstAllowedDate } from "@/server/programme/entry/lifecycle/gates/frequency";

const DAY = 86_400_000;

/**
 * Of the contacts a campaign going live would mail, how many the frequency caps make wait (the
 * caps count every campaign's pieces of the workspace, as the lifecycle's frequency gate does),
 * and until when at the latest. Each contact is judged on the pieces already sent or planned, not
 * on the others entering with it.
 */
export async function frequencyWaits(
  db: Db,
  p: {
    campaign: Pick<Campaign, "workspaceId" | "frequencyCapContact" | "frequencyCapAccount" | "frequencyWindowDays">;
    contacts: { id: string; accountId: string | null }[];
    now: Date;
  },
): Promise<{ waiting: number; until: Date | null }> {
  const { campaign } = p;
  if (p.contacts.length === 0 || (campaign.frequencyCapContact === null && campaign.frequencyCapAccount === null))
    return { waiting: 0, until: null };
  const since = new Date(p.now.getTime() - campaign.frequencyWindowDays * DAY);
  const rows = await db.$queryRaw<{ contactId: string | null; accountId: string | null; at: Date }[]>`
    SELECT pc."contactId", COALESCE(c."accountId", pc."accountId") AS "accountId", COALESCE(pc."mailedAt", e."scheduledFor", pc."createdAt") AS at
      FROM "MailPiece" pc
      LEFT JOIN "Contact" c ON c.id = pc."contactId"
      LEFT JOIN "Enrollment" e ON e.id = pc."enrollmentId"
     WHERE pc."workspaceId" = ${campaign.workspaceId} AND pc.status NOT IN ('cancelled', 'failed')
       AND COALESCE(pc."mailedAt", e."scheduledFor", pc."createdAt") > ${since}
    UNION ALL
    SELECT e."contactId", e."accountId", e."scheduledFor" AS at FROM "Enrollment" e
     WHERE e."workspaceId" = ${campaign.workspaceId} AND e.arm = 'treatment' AND e.status = 'scheduled'
       AND NOT EXISTS (SELECT 1 FROM "MailPiece" x WHERE x."enrollmentId" = e.id) AND e."scheduledFor" > ${since}`;
  const byContact = new Map<string, Date[]>();
  const byAccount = new Map<string, Date[]>();
  for (const r of rows) {
    if (r.contactId) byContact.set(r.contactId, [...(byContact.get(r.contactId) ?? []), r.at]);
    if (r.accountId) byAccount.set(r.accountId, [...(byAccount.get(r.accountId) ?? []), r.at]);
  }
  let waiting = 0;
  let until: Date | null = null;
  for (const c of p.contacts) {
    const first = firstAllowedDate({
      now: p.now,
      windowDays: campaign.frequencyWindowDays,
      capContact: campaign.frequencyCapContact,
      capAccount: campaign.frequencyCapAccount,
      contactSends: byContact.get(c.id) ?? [],
      accountSends: c.accountId ? (byAccount.get(c.accountId) ?? []) : [],
    });
    if (first > p.now) {
      waiting++;
      if (!until || first > until) until = first;
    }
  }
  return { waiting, until };
}
