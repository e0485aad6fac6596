import type { EntryPolicy } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { signalWork } from "@/server/ground/signals/entry-wake";
export { ENTRY_POLICY_WORDS } from "./entry-policy-words";

/**
 * Entry policies: who the service enters into a campaign by itself (frozen at go-live).
 * - audience_at_go_live: everyone in the audience when the campaign goes live, once;
 * - audience_joins: as above, and a contact added to the audience later, when added (the
 *   database trigger of migration 20261126125437_campaign_entry_policy does that for every way a
 *   contact joins: an import, a CRM sync, a person, an agent);
 * - none: nobody (entry events posted with an API key or by an agent only).
 * Each such entry is an ordinary entry event: the lifecycle applies every gate to it.
 */

/** Going live enters the whole audience in one transaction: tens of thousands of rows need more than Prisma's default 5 s. */
export const GO_LIVE_TX = { timeout: 180_000, maxWait: 20_000 };

/**
 * The entry the service makes for a contact in a campaign (going live, joining the audience, sent
 * by hand) has one idempotency key, svc:entry:<campaignId>:<contactId>, built in SQL here, in
 * send-to.ts and by the trigger on AudienceMember, so a contact never enters twice that way. Such
 * entries store this fingerprint (they are never replayed through the REST API).
 */
export const SERVICE_ENTRY_FINGERPRINT = "svc:entry";

/** The problem with a draft's entry (empty when someone can enter it once live). */
export function entryProblem(c: { entryPolicy?: EntryPolicy; acceptsApiEvents?: boolean }): string | null {
  if ((c.entryPolicy ?? "none") === "none" && c.acceptsApiEvents === false) {
    return "choose who gets this: the audience at go-live, the audience and later joiners, or allow API entry events (with neither, nobody can ever enter the campaign)";
  }
  return null;
}

/** From this many entries at once, going live refreshes the planner's statistics of the events. */
const BULK_ENTRY = 1_000;

/**
 * Enters everyone in the campaign's audience, in one set-based statement inside the go-live
 * transaction: all of them or (when the transaction does not commit) none, and each contact at
 * most once (the service key is unique per workspace). Entries wait until `sendAt` when it is
 * later. Returns how many entered.
 */
export async function enterAudienceAtGoLive(
  tx: Db,
  p: { workspaceId: string; campaignId: string; audienceId: string; sendAt: Date | null; now: Date },
): Promise<number> {
  const runAfter = p.sendAt && p.sendAt > p.now ? p.sendAt : p.now;
  const entered = await tx.$executeRaw`
    INSERT INTO "EntryEvent" ("workspaceId", "campaignId", "contactId", source, "idempotencyKey", fingerprint, "occurredAt", "runAfter", "updatedAt")
    SELECT m."workspaceId", ${p.campaignId}, m."contactId", 'go_live'::"EntryEventSource",
           'svc:entry:' || ${p.campaignId}::text || ':' || m."contactId", ${SERVICE_ENTRY_FINGERPRINT}, ${p.now}, ${runAfter}, ${p.now}
      FROM "AudienceMember" m
     WHERE m."audienceId" = ${p.audienceId} AND m."workspaceId" = ${p.workspaceId}
    ON CONFLICT ("workspaceId", "idempotencyKey") DO NOTHING`;
  // A whole audience entered at once changes what the planner knows of the events (how many are
  // accepted and due): without fresh statistics, the workers' claims read and sorted every accepted
  // event for each batch, as if there were a handful. ANALYZE in this transaction counts its own
  // new rows and its statistics commit with them (a role that may not analyze gets a warning only).
  if (entered >= BULK_ENTRY) await tx.$executeRaw`ANALYZE "EntryEvent"`;
  signalWork();
  return entered;
}
