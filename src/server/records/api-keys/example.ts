import type { Db } from "@/server/ground/db";
import { baseUrl } from "@/server/ground/platform/base-url";

/**
 * A ready entry-event request for the API key page: the newest live campaign that accepts API
 * events, and one contact of its audience it has not entered yet (by name, with the `ctc_…` id the
 * REST contract takes). Null when no live campaign accepts API events.
 */
export async function entryEventExample(db: Db, p: { workspaceId: string }) {
  const campaign = await db.campaign.findFirst({
    where: { workspaceId: p.workspaceId, status: "live", acceptsApiEvents: true, audienceId: { not: null } },
    orderBy: [{ wentLiveAt: "desc" }, { id: "asc" }],
    select: { id: true, name: true, audienceId: true },
  });
  if (!campaign?.audienceId) return null;
  const member = await db.audienceMember.findFirst({
    where: {
      audienceId: campaign.audienceId,
      workspaceId: p.workspaceId,
      contact: { entryEvents: { none: { campaignId: campaign.id } } },
    },
    orderBy: { contactId: "asc" },
    select: { contact: { select: { id: true, firstName: true, lastName: true, email: true } } },
  });
  const contact = member?.contact ?? null;
  return {
    url: `${baseUrl()}/api/v1/campaigns/${campaign.id}/events`,
    campaign: { id: campaign.id, name: campaign.name },
    contact: contact
      ? {
          id: contact.id,
          name: [contact.firstName, contact.lastName].filter(Boolean).join(" ") || contact.email || contact.id,
        }
      : null,
  };
}
