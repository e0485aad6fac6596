import { hotSql } from "@/server/ground/platform/hot-transaction";
import { type SuppressionKind, Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { mailabilityJudge } from "@/server/programme/mailability/lifecycle";
import { recipientKey } from "@/server/records/addresses/checks";
import { contractGate } from "./gates/contract";
import { firstAllowedDate, loadSends } from "./gates/frequency";
import { armFor, assignArms, heldOutElsewhere } from "./gates/holdout";
import { suppressionKeys } from "@/server/records/contacts/suppression-check";
import { type BatchContact, batchContacts } from "./batch-contacts";
import type { EventContext } from "./snapshot";
import type { GateFacts } from "./transitions";

const DAY = 24 * 60 * 60_000;

/** The gates' facts, with the recipient's key (duplicates) and the mailability audit's reasons for a suppression or address skip. */
export type AdmissionFacts = GateFacts & { recipientKey: string; mailabilityReasons: string[] };

/** One event's contact with its account, as a batch reads its contacts (batchContacts). */
export async function loadContact(db: Db, workspaceId: string, contactId: string): Promise<BatchContact> {
  const contact = (await batchContacts(db, workspaceId, [contactId])).get(contactId);
  if (!contact) throw new Error(`Contact ${contactId} is not in workspace ${workspaceId}.`);
  return contact;
}

type GateContact = BatchContact;

const hasCaps = (c: EventContext["campaign"]) => c.frequencyCapContact !== null || c.frequencyCapAccount !== null;

/**
 * Evaluates the admission gates (1-6) for one event without an enrollment, in its step
 * transaction: the gates a batch shares (admissionFacts) for a batch of one, then the frequency
 * caps, which take the locks that keep them exact under concurrency (the account and contact rows).
 */
export async function evaluateGates(db: Db, ctx: EventContext): Promise<AdmissionFacts> {
  const [facts] = (await admissionFacts(db, [ctx])).values();
  if (!hasCaps(ctx.campaign)) return facts;
  const { campaign, event } = ctx;
  const now = ctx.snapshot.now;
  // Serialise scheduling per account and contact (account first, always the same order).
  if (event.contactAccountId)
    await db.$queryRaw`SELECT id FROM "Account" WHERE id = ${event.contactAccountId} FOR UPDATE`;
  await db.$queryRaw`SELECT id FROM "Contact" WHERE id = ${event.contactId} FOR UPDATE`;
  const sends = await loadSends(db, {
    workspaceId: event.workspaceId,
    contactId: event.contactId,
    accountId: event.contactAccountId,
    since: new Date(now.getTime() - campaign.frequencyWindowDays * DAY),
  });
  const firstAllowedAt = firstAllowedDate({
    now,
    windowDays: campaign.frequencyWindowDays,
    capContact: campaign.frequencyCapContact,
    capAccount: campaign.frequencyCapAccount,
    contactSends: sends.contactSends,
    accountSends: sends.accountSends,
  });
  return { ...facts, firstAllowedAt };
}

/** Whether admission can be decided for this batch of events together (campaigns with frequency caps go one event at a time). */
export const batchAdmissible = (ctx: EventContext) => !hasCaps(ctx.campaign);

/**
 * Gates 1-5 for a batch of events of one workspace (one or more campaigns) with a handful of set-based queries:
 * the contacts, audience membership, suppressions, holdout arms, and duplicate recipients within
 * each campaign. Duplicates are exact under concurrency: an advisory lock per campaign and
 * recipient key, all of a batch's taken in one statement in a fixed order, and within the batch the
 * first event of a recipient wins. Frequency caps (gate 6) are not evaluated here: firstAllowedAt
 * is now (see evaluateGates).
 */
export async function admissionFacts(db: Db, ctxs: EventContext[]): Promise<Map<string, AdmissionFacts>> {
  const out = new Map<string, AdmissionFacts>();
  if (ctxs.length === 0) return out;
  const workspaceId = ctxs[0].event.workspaceId;
  if (ctxs.some((c) => c.event.workspaceId !== workspaceId))
    throw new Error("admissionFacts takes the events of one workspace");
  const contacts = await batchContacts(
    db,
    workspaceId,
    ctxs.map((c) => c.event.contactId),
  );
  const members = await loadMembership(db, ctxs);
  const suppressed = await loadSuppressed(db, workspaceId, [...contacts.values()]);
  const keyOf = new Map(ctxs.map((ctx) => [ctx.event.id, recipientKey(contacts.get(ctx.event.contactId)!)]));
  const taken = await lockRecipientKeys(db, ctxs, keyOf);
  const entered = await loadEntered(db, ctxs);
  const arms = await loadArms(db, ctxs, contacts);
  const elsewhere = await heldOutElsewhere(db, {
    workspaceId,
    now: ctxs[0].snapshot.now,
    units: ctxs.flatMap((c) => {
      const accountId = contacts.get(c.event.contactId)?.accountId;
      return accountId ? [{ campaignId: c.campaign.id, accountId }] : [];
    }),
  });
  // Gates 2 and 3 are the mailability audit's verdict for each campaign (its format, design size and
  // contract's countries), so the audit and the mail give the same answer for the same reasons.
  const judges = new Map<string, Awaited<ReturnType<typeof mailabilityJudge>>>();
  for (const group of groupByCampaign(ctxs)) {
    judges.set(
      group[0].campaign.id,
      await mailabilityJudge(db, {
        workspaceId,
        campaign: group[0].campaign,
        contacts: group.map((c) => contacts.get(c.event.contactId)!),
      }),
    );
  }
  const claimedInBatch = new Set<string>();
  const enteredInBatch = new Set<string>();
  for (const ctx of ctxs) {
    const { campaign, event } = ctx;
    const contact = contacts.get(event.contactId)!;
    const key = keyOf.get(event.id)!;
    const judge = judges.get(campaign.id)!;
    const isMember = members.has(`${campaign.audienceId}:${contact.id}`);
    const isSuppressed = isMember && suppressed.has(contact.id);
    const arm = contact.accountId
      ? arms.get(`${campaign.id}:${contact.accountId}`)!
      : await armFor(db, {
          workspaceId,
          campaignId: campaign.id,
          accountId: null,
          contactId: contact.id,
          holdoutShare: campaign.holdoutShare,
        });
    // Only an account this campaign would mail: one it holds out itself is its own holdout.
    const heldOutBy =
      arm === "treatment" && contact.accountId ? (elsewhere.get(`${campaign.id}:${contact.accountId}`) ?? null) : null;
    const contract = contractGate({ plan: campaign.plan, format: campaign.format, contract: campaign.contract });
    const alreadyEnrolled =
      enteredInBatch.has(`${campaign.id}:${contact.id}`) || enteredBefore(entered, ctx, ctx.snapshot.now);
    let mailability = judge(contact, { suppressed: isSuppressed, duplicateContact: false });
    let address: GateFacts["address"] = mailability.gate === "address_invalid" ? "invalid" : "ok";
    if (
      mailability.gate === "ok" &&
      (taken(campaign.id, key, contact.id) || claimedInBatch.has(`${campaign.id}:${key}`))
    ) {
      mailability = judge(contact, { suppressed: isSuppressed, duplicateContact: true });
      address = "duplicate";
    }
    // An event that will enroll in the treatment arm claims its recipient for the rest of the batch.
    if (
      !alreadyEnrolled &&
      isMember &&
      !isSuppressed &&
      address === "ok" &&
      arm === "treatment" &&
      !heldOutBy &&
      contract === "ok"
    )
      claimedInBatch.add(`${campaign.id}:${key}`);
    // An event that will enroll (either arm) is the contact's entry for the rest of the batch.
    if (
      !alreadyEnrolled &&
      isMember &&
      !isSuppressed &&
      address === "ok" &&
      (arm === "holdout" || heldOutBy || contract === "ok")
    )
      enteredInBatch.add(`${campaign.id}:${contact.id}`);
    out.set(event.id, {
      alreadyEnrolled,
      isMember,
      isSuppressed,
      address,
      arm,
      heldOutBy,
      contract,
      firstAllowedAt: ctx.snapshot.now,
      recipientKey: key,
      mailabilityReasons: mailability.reasons,
    });
  }
  return out;
}

function groupByCampaign(ctxs: EventContext[]): EventContext[][] {
  const groups = new Map<string, EventContext[]>();
  for (const ctx of ctxs) groups.set(ctx.campaign.id, [...(groups.get(ctx.campaign.id) ?? []), ctx]);
  return [...groups.values()];
}

/**
 * The arm of each of the batch's accounts in its campaign ("campaignId:accountId"): assigned at
 * go-live, or now, once, for an account that joined the audience later (assignArms).
 */
async function loadArms(
  db: Db,
  ctxs: EventContext[],
  contacts: Map<string, GateContact>,
): Promise<Map<string, "treatment" | "holdout">> {
  const units = ctxs.flatMap((c) => {
    const accountId = contacts.get(c.event.contactId)?.accountId;
    return accountId ? [{ campaignId: c.campaign.id, accountId, holdoutShare: c.campaign.holdoutShare }] : [];
  });
  if (units.length === 0) return new Map();
  const rows = await hotSql<{ campaignId: string; accountId: string; arm: "treatment" | "holdout" }>(
    db,
    Prisma.sql`
    SELECT h."campaignId", h."accountId", h.arm::text AS arm FROM "HoldoutAssignment" h
      JOIN jsonb_to_recordset(${JSON.stringify(units.map((u) => ({ c: u.campaignId, a: u.accountId })))}::jsonb) AS x(c text, a text) ON h."campaignId" = x.c AND h."accountId" = x.a`,
  );
  const arms = new Map(rows.map((r) => [`${r.campaignId}:${r.accountId}`, r.arm]));
  const missing = units.filter((u) => !arms.has(`${u.campaignId}:${u.accountId}`));
  if (missing.length)
    for (const [k, arm] of await assignArms(db, { workspaceId: ctxs[0].event.workspaceId, units: missing }))
      arms.set(k, arm);
  return arms;
}

/** "audienceId:contactId" for each event whose contact is in its campaign's audience. */
async function loadMembership(db: Db, ctxs: EventContext[]): Promise<Set<string>> {
  const pairs = ctxs
    .filter((c) => c.campaign.audienceId)
    .map((c) => ({ a: c.campaign.audienceId!, c: c.event.contactId }));
  if (pairs.length === 0) return new Set();
  const rows = await hotSql<{ audienceId: string; contactId: string }>(
    db,
    Prisma.sql`
    SELECT m."audienceId", m."contactId" FROM "AudienceMember" m
      JOIN jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) AS x(a text, c text) ON m."audienceId" = x.a AND m."contactId" = x.c`,
  );
  return new Set(rows.map((r) => `${r.audienceId}:${r.contactId}`));
}

/** The contacts any of whose keys (contact, email, address, account, domain) is on the suppression list: one query. */
async function loadSuppressed(db: Db, workspaceId: string, contacts: GateContact[]): Promise<Set<string>> {
  const keysOf = contacts.map((c) => ({
    id: c.id,
    keys: suppressionKeys({ ...c, accountDomain: c.account?.domain ?? null }),
  }));
  const all = keysOf.flatMap((k) => k.keys);
  if (all.length === 0) return new Set();
  const hits = await hotSql<{ kind: SuppressionKind; value: string }>(
    db,
    Prisma.sql`
    SELECT s.kind, s.value FROM "Suppression" s
      JOIN jsonb_to_recordset(${JSON.stringify(all)}::jsonb) AS x(kind text, value text) ON s.kind::text = x.kind AND s.value = x.value
     WHERE s."workspaceId" = ${workspaceId}`,
  );
  const found = new Set(hits.map((h) => `${h.kind}:${h.value}`));
  return new Set(keysOf.filter((k) => k.keys.some((key) => found.has(`${key.kind}:${key.value}`))).map((k) => k.id));
}

/**
 * Takes the advisory lock of each campaign and recipient key of the batch (sorted, so two workers
 * never wait on each other in a circle), then reads the recipients already on their way: another
 * contact at the same name and address, or this contact with a piece not yet mailed.
 */
async function lockRecipientKeys(db: Db, ctxs: EventContext[], keyOf: Map<string, string>) {
  // The contact's own lock keeps "one entry per contact per campaign" exact even when its
  // recipient key changed between two of its events.
  const locks = [
    ...new Set(
      ctxs.flatMap((c) => [
        `dup:${c.campaign.id}:${keyOf.get(c.event.id)}`,
        `entry:${c.campaign.id}:${c.event.contactId}`,
      ]),
    ),
  ].sort();
  await hotSql(
    db,
    Prisma.sql`SELECT pg_advisory_xact_lock(hashtext(k))::text AS locked FROM unnest(${locks}::text[]) AS k ORDER BY k`,
  );
  const pairs = [
    ...new Map(
      ctxs.map((c) => [
        JSON.stringify([c.campaign.id, keyOf.get(c.event.id)!]),
        [c.campaign.id, keyOf.get(c.event.id)!],
      ]),
    ).values(),
  ];
  // One probe of "Enrollment"(campaignId, recipientKey) per distinct key, whatever the campaign's size.
  // The arm is compared as text so that PostgreSQL cannot use the (campaignId, arm) index instead:
  // with the statistics of a table that grows fast it did, reading every enrollment of the campaign
  // per key (a 50,000-contact send spent most of its time there).
  const rows = await hotSql<{ campaignId: string; recipientKey: string; contactId: string; status: string }>(
    db,
    Prisma.sql`
    SELECT DISTINCT x.c AS "campaignId", x.k AS "recipientKey", e."contactId", e.status::text AS status
      FROM unnest(${pairs.map((p) => p[0])}::text[], ${pairs.map((p) => p[1])}::text[]) AS x(c, k)
      CROSS JOIN LATERAL (
        SELECT en."contactId", en.status FROM "Enrollment" en
         WHERE en."campaignId" = x.c AND en."recipientKey" = x.k AND en.arm::text = 'treatment' AND en.status <> 'cancelled') e`,
  );
  const byKey = new Map<string, typeof rows>();
  for (const r of rows)
    byKey.set(`${r.campaignId}:${r.recipientKey}`, [...(byKey.get(`${r.campaignId}:${r.recipientKey}`) ?? []), r]);
  return (campaignId: string, key: string, contactId: string) =>
    (byKey.get(`${campaignId}:${key}`) ?? []).some((r) => r.contactId !== contactId || r.status !== "mailed");
}

/**
 * The latest entry (enrollment, in either arm, whatever became of it) of each of the batch's
 * contacts in its campaign, "campaignId:contactId" -> when. Read after lockRecipientKeys took the
 * contacts' locks, so an entry committed by another worker meanwhile is seen.
 */
async function loadEntered(db: Db, ctxs: EventContext[]): Promise<Map<string, Date>> {
  const pairs = [...new Map(ctxs.map((c) => [`${c.campaign.id}:${c.event.contactId}`, c])).values()];
  const rows = await hotSql<{ campaignId: string; contactId: string; last: Date }>(
    db,
    Prisma.sql`
    SELECT x.c AS "campaignId", x.k AS "contactId", e.last
      FROM unnest(${pairs.map((p) => p.campaign.id)}::text[], ${pairs.map((p) => p.event.contactId)}::text[]) AS x(c, k)
      CROSS JOIN LATERAL (
        SELECT max(en."createdAt") AS last FROM "Enrollment" en WHERE en."contactId" = x.k AND en."campaignId" = x.c) e
     WHERE e.last IS NOT NULL`,
  );
  return new Map(rows.map((r) => [`${r.campaignId}:${r.contactId}`, new Date(r.last)]));
}

/** Whether the event's contact entered its campaign before, within the campaign's re-entry period (forever without one). */
function enteredBefore(entered: Map<string, Date>, ctx: EventContext, now: Date): boolean {
  const last = entered.get(`${ctx.campaign.id}:${ctx.event.contactId}`);
  if (!last) return false;
  const days = ctx.campaign.reentryAfterDays;
  return days === null || last.getTime() > now.getTime() - days * DAY;
}
