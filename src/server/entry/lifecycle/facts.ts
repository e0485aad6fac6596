import type { Db } from "@/server/db";
import { mailabilityOfEnrollee } from "@/server/mailability/lifecycle";
import { recipientKey } from "./gates/address";
import { contractGate } from "./gates/contract";
import { firstAllowedDate, loadSends } from "./gates/frequency";
import { armFor } from "./gates/holdout";
import { isSuppressed } from "./gates/suppression";
import type { EventContext } from "./snapshot";
import type { GateFacts } from "./transitions";

const DAY = 24 * 60 * 60_000;

export async function loadContact(db: Db, workspaceId: string, contactId: string) {
  return db.contact.findFirstOrThrow({ where: { id: contactId, workspaceId }, include: { account: { select: { id: true, name: true, domain: true } } } });
}

/**
 * Evaluates the admission gates (1-6) for an event without an enrollment. Runs in the step
 * transaction; it takes the locks that keep gates exact under concurrency: the contact and account
 * rows (frequency caps) and an advisory lock per campaign and recipient (duplicate addresses).
 */
export async function evaluateGates(db: Db, ctx: EventContext): Promise<GateFacts & { recipientKey: string; mailabilityReasons: string[] }> {
  const { campaign, event } = ctx;
  const now = ctx.snapshot.now;
  const contact = await loadContact(db, event.workspaceId, event.contactId);
  const member = campaign.audienceId
    ? (await db.audienceMember.findUnique({ where: { audienceId_contactId: { audienceId: campaign.audienceId, contactId: contact.id } } })) !== null
    : false;
  const subject = { ...contact, accountDomain: contact.account?.domain ?? null };
  const suppressed = member && (await isSuppressed(db, event.workspaceId, subject));

  // Gates 2 and 3 are the mailability audit's verdict for this campaign (its format, design size
  // and contract's countries), so the audit and the mail give the same answer for the same reasons.
  const key = recipientKey(contact);
  const judge = (duplicateContact: boolean) => mailabilityOfEnrollee(db, { workspaceId: event.workspaceId, campaign, contact, suppressed, duplicateContact });
  let mailability = await judge(false);
  let address: GateFacts["address"] = mailability.gate === "address_invalid" ? "invalid" : "ok";
  if (mailability.gate === "ok") {
    await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`dup:${campaign.id}:${key}`}))`;
    // Another contact record for the same person at the same address, or this contact already on its way.
    const [duplicate] = await db.$queryRaw<{ id: string }[]>`
      SELECT id FROM "Enrollment"
       WHERE "campaignId" = ${campaign.id} AND "recipientKey" = ${key} AND arm = 'treatment' AND status <> 'cancelled'
         AND ("contactId" <> ${contact.id} OR status <> 'mailed')
       LIMIT 1`;
    if (duplicate) {
      mailability = await judge(true);
      address = "duplicate";
    }
  }

  const arm = await armFor(db, { workspaceId: event.workspaceId, campaignId: campaign.id, accountId: contact.accountId, contactId: contact.id, holdoutShare: campaign.holdoutShare });
  const contract = contractGate({ plan: campaign.plan, format: campaign.format, contract: campaign.contract });

  let firstAllowedAt = now;
  if (campaign.frequencyCapContact !== null || campaign.frequencyCapAccount !== null) {
    // Serialise scheduling per account and contact (account first, always the same order).
    if (contact.accountId) await db.$queryRaw`SELECT id FROM "Account" WHERE id = ${contact.accountId} FOR UPDATE`;
    await db.$queryRaw`SELECT id FROM "Contact" WHERE id = ${contact.id} FOR UPDATE`;
    const sends = await loadSends(db, { workspaceId: event.workspaceId, contactId: contact.id, accountId: contact.accountId, since: new Date(now.getTime() - campaign.frequencyWindowDays * DAY) });
    firstAllowedAt = firstAllowedDate({
      now,
      windowDays: campaign.frequencyWindowDays,
      capContact: campaign.frequencyCapContact,
      capAccount: campaign.frequencyCapAccount,
      contactSends: sends.contactSends,
      accountSends: sends.accountSends,
    });
  }
  return { isMember: member, isSuppressed: suppressed, address, arm, contract, firstAllowedAt, recipientKey: key, mailabilityReasons: mailability.reasons };
}
