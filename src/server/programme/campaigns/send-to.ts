import { z } from "zod";
import type { Prisma, PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import { signalWork } from "@/server/ground/signals/entry-wake";
import { AppError } from "@/server/ground/errors";
import { SERVICE_ENTRY_FINGERPRINT } from "./entry-policy";

export const MAX_SEND_TO = 100;

export const ZSendTo = z.object({
  campaignId: z.string().min(1).max(64),
  contactIds: z
    .array(z.string().min(1).max(200))
    .min(1, "Name at least one contact.")
    .max(MAX_SEND_TO, `At most ${MAX_SEND_TO} contacts at a time.`)
    .refine((ids) => new Set(ids).size === ids.length, "Each contact once."),
});

export interface SendToResult {
  contactId: string;
  eventId: string;
  /** False when the contact had already entered this campaign (nothing new was written for them). */
  entered: boolean;
}

/**
 * Adds contacts to a live campaign by hand (a person's "Send to one more person", an agent's
 * campaigns_send_to). Each becomes an ordinary entry event, so every gate, the holdout and the
 * budget apply. A contact who already entered the campaign (in any way) is not entered again.
 * All or nothing: an unknown contact, one outside the audience or a campaign that is not live
 * writes nothing.
 */
export async function sendToContacts(
  prisma: PrismaClient,
  p: {
    workspaceId: string;
    campaignId: string;
    contactIds: string[];
    source: "owner" | "agent";
    actor: Actor;
    now?: Date;
  },
): Promise<SendToResult[]> {
  const now = p.now ?? new Date();
  const results = await prisma.$transaction(async (tx) => {
    // The campaign's row lock orders this with pausing, ending and other sends of the same campaign.
    const [campaign] = await tx.$queryRaw<{ id: string; status: string; audienceId: string | null }[]>`
      SELECT id, status::text AS status, "audienceId" FROM "Campaign" WHERE id = ${p.campaignId} AND "workspaceId" = ${p.workspaceId} FOR UPDATE`;
    if (!campaign) throw new AppError("not_found", "No such campaign.");
    if (campaign.status !== "live") {
      throw new AppError(
        "campaign_not_live",
        `The campaign is ${campaign.status}; people can be sent to only while it is live. Nothing was written.`,
      );
    }
    const rows = await tx.$queryRaw<{ id: string; member: boolean }[]>`
      SELECT ct.id, EXISTS (SELECT 1 FROM "AudienceMember" m WHERE m."audienceId" = ${campaign.audienceId} AND m."contactId" = ct.id) AS member
        FROM "Contact" ct WHERE ct."workspaceId" = ${p.workspaceId} AND ct.id = ANY(${p.contactIds}::text[])`;
    const found = new Map(rows.map((r) => [r.id, r.member]));
    const missing = p.contactIds.map((id, i) => ({ id, i })).filter(({ id }) => !found.has(id));
    if (missing.length) {
      throw new AppError(
        "contact_not_found",
        `No contact with ${missing.length === 1 ? "this id" : "these ids"} in the workspace: ${missing.map((m) => m.id).join(", ")}. Nothing was written.`,
        {
          errors: missing.map(({ i }) => ({
            pointer: `/contactIds/${i}`,
            detail: "No contact with this id exists in the workspace.",
          })),
        },
      );
    }
    const outside = p.contactIds.map((id, i) => ({ id, i })).filter(({ id }) => !found.get(id));
    if (outside.length) {
      throw new AppError(
        "contact_not_in_audience",
        `Not in the campaign's audience: ${outside.map((m) => m.id).join(", ")}. Add them to the audience first. Nothing was written.`,
        {
          errors: outside.map(({ i }) => ({
            pointer: `/contactIds/${i}`,
            detail: "The contact is not a member of the campaign's audience.",
          })),
        },
      );
    }
    // One statement: an entry for each contact without one in this campaign, under the key the
    // service's own entries use, so a concurrent send or a joining trigger cannot make a second.
    const inserted = await tx.$queryRaw<{ contactId: string; id: string }[]>`
      INSERT INTO "EntryEvent" ("workspaceId", "campaignId", "contactId", source, "idempotencyKey", fingerprint, "occurredAt", "runAfter", "updatedAt")
      SELECT ${p.workspaceId}, ${campaign.id}, x.id, ${p.source}::"EntryEventSource", 'svc:entry:' || ${campaign.id}::text || ':' || x.id,
             ${SERVICE_ENTRY_FINGERPRINT}, ${now}, ${now}, ${now}
        FROM unnest(${p.contactIds}::text[]) AS x(id)
       WHERE NOT EXISTS (SELECT 1 FROM "EntryEvent" e WHERE e."campaignId" = ${campaign.id} AND e."contactId" = x.id)
      ON CONFLICT ("workspaceId", "idempotencyKey") DO NOTHING
      RETURNING "contactId", id`;
    const fresh = new Map(inserted.map((r) => [r.contactId, r.id]));
    const others = p.contactIds.filter((id) => !fresh.has(id));
    // Those who had entered already: their first entry in this campaign.
    const earlier = others.length
      ? await tx.$queryRaw<{ contactId: string; id: string }[]>`
          SELECT DISTINCT ON ("contactId") "contactId", id FROM "EntryEvent"
           WHERE "campaignId" = ${campaign.id} AND "workspaceId" = ${p.workspaceId} AND "contactId" = ANY(${others}::text[])
           ORDER BY "contactId", "createdAt", id`
      : [];
    const before = new Map(earlier.map((r) => [r.contactId, r.id]));
    const out = p.contactIds.map((contactId) => ({
      contactId,
      eventId: fresh.get(contactId) ?? before.get(contactId)!,
      entered: fresh.has(contactId),
    }));
    const entered = out.filter((r) => r.entered).map((r) => r.contactId);
    if (entered.length) {
      await recordAudit(tx, p.workspaceId, p.actor, "campaign.sent_to", { type: "campaign", id: campaign.id }, {
        contactIds: entered,
      } as Prisma.InputJsonValue);
    }
    return out;
  });
  if (results.some((r) => r.entered)) signalWork();
  return results;
}
