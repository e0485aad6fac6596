import { Prisma } from "@/generated/prisma/client";
import { hotSql } from "@/server/ground/platform/hot-transaction";
import type { Db } from "@/server/ground/db";
import { contractGate } from "./gates/contract";
import type { EventStatus, Snapshot } from "./transitions";

/** Everything about one event that the steps after admission need, read in its step transaction. */
export interface EventContext {
  snapshot: Snapshot;
  event: {
    id: string;
    workspaceId: string;
    campaignId: string;
    contactId: string;
    contactAccountId: string | null;
    status: EventStatus;
  };
  campaign: {
    id: string;
    workspaceId: string;
    name: string;
    format: "postcard" | "letter" | "handwritten" | "gift";
    audienceId: string | null;
    holdoutShare: number;
    frequencyCapContact: number | null;
    frequencyCapAccount: number | null;
    frequencyWindowDays: number;
    /** Days after a contact's last entry before it may enter again (null: once only). */
    reentryAfterDays: number | null;
    headline: string;
    bodyTemplate: string;
    signOff: string;
    destinationUrl: string | null;
    /** The design the campaign prints (null: its format's standard layout). */
    designId: string | null;
    plan: "audit" | "paid";
    /** A gift campaign's vendor price per gift (its named product and shipping): what each gift holds. */
    giftPriceCents?: number | null;
    contract: {
      status: string;
      format: string;
      unitCostCents: number;
      countryPrices: unknown;
      vendor: string;
      countries: string[];
      size?: string | null;
      connectionId?: string | null;
    } | null;
    /** The size of the campaign's design (null: the format's default size). */
    designSize: string | null;
  };
  enrollmentId: string | null;
  pieceId: string | null;
}

/** What a context needs of the event, its enrollment, piece, hold, review card and gift claim. */
interface EventRow {
  id: string;
  workspaceId: string;
  campaignId: string;
  contactId: string;
  contactAccountId: string | null;
  status: EventStatus;
  lockToken: string | null;
  enrollmentId: string | null;
  arm: "treatment" | "holdout" | null;
  enrollmentStatus: string | null;
  scheduledFor: Date | null;
  pieceId: string | null;
  pieceStatus: NonNullable<Snapshot["piece"]>["status"] | null;
  reservationStatus: NonNullable<Snapshot["reservation"]>["status"] | null;
  cardStatus: "pending" | "accepted" | "declined" | "expired" | null;
  cardExpiresAt: Date | null;
  claimStatus: NonNullable<Snapshot["claim"]>["status"] | null;
  claimExpiresAt: Date | null;
}

/** What a context needs of the campaign, its workspace's plan, its contract and design. */
interface CampaignRow {
  campaignId: string;
  name: string;
  format: EventContext["campaign"]["format"];
  campaignStatus: Snapshot["campaign"]["status"];
  endsAt: Date | null;
  reviewGate: string;
  audienceId: string | null;
  holdoutShare: number;
  frequencyCapContact: number | null;
  frequencyCapAccount: number | null;
  frequencyWindowDays: number;
  reentryAfterDays: number | null;
  headline: string;
  bodyTemplate: string;
  signOff: string;
  destinationUrl: string | null;
  designId: string | null;
  giftPriceCents: number | null;
  plan: "audit" | "paid";
  contractStatus: string | null;
  contractFormat: string | null;
  unitCostCents: number | null;
  countryPrices: unknown;
  vendor: string | null;
  contractCountries: string[] | null;
  contractSize: string | null;
  contractConnectionId: string | null;
  designSize: string | null;
  responseMode: string;
}

/**
 * Locks the event row and reads its state, if this worker still holds its lease: one lock and
 * one joined read, because the runner does this before every action. Null when the lease was
 * lost (another worker took over after expiry): the caller stops without writing.
 */
export async function loadEventContext(
  db: Db,
  eventId: string,
  leaseToken: string,
  now: Date,
): Promise<EventContext | null> {
  return (await loadEventContexts(db, [eventId], leaseToken, now)).get(eventId) ?? null;
}

/**
 * The same for a batch of events claimed with one lease token: their rows locked in id order (so
 * two workers never deadlock), then two reads: the events with what they have under way, and
 * their campaigns (two smaller joins, which PostgreSQL plans in a fraction of the time one join of
 * twelve tables took it). Events whose lease was lost are left out.
 */
export async function loadEventContexts(
  db: Db,
  eventIds: string[],
  leaseToken: string,
  now: Date,
): Promise<Map<string, EventContext>> {
  const out = new Map<string, EventContext>();
  if (eventIds.length === 0) return out;
  const locked = await hotSql<{ id: string }>(
    db,
    Prisma.sql`
    SELECT id FROM "EntryEvent" WHERE id = ANY(${eventIds}::text[]) AND "lockToken" = ${leaseToken} ORDER BY id FOR UPDATE`,
  );
  if (locked.length === 0) return out;
  const rows = await hotSql<EventRow>(
    db,
    Prisma.sql`
    SELECT e.id, e."workspaceId", e."campaignId", e."contactId", ct."accountId" AS "contactAccountId", e.status::text AS status, e."lockToken",
           en.id AS "enrollmentId", en.arm::text AS arm, en.status::text AS "enrollmentStatus", en."scheduledFor",
           p.id AS "pieceId", p.status::text AS "pieceStatus",
           r.status::text AS "reservationStatus",
           card.status::text AS "cardStatus", card."expiresAt" AS "cardExpiresAt",
           gc.status::text AS "claimStatus", gc."expiresAt" AS "claimExpiresAt"
      FROM "EntryEvent" e
      JOIN "Contact" ct ON ct.id = e."contactId"
      LEFT JOIN "Enrollment" en ON en."entryEventId" = e.id
      LEFT JOIN "MailPiece" p ON p."enrollmentId" = en.id
      LEFT JOIN "BudgetReservation" r ON r."enrollmentId" = en.id
      LEFT JOIN "GiftClaim" gc ON gc."pieceId" = p.id
      LEFT JOIN LATERAL (
        SELECT cc.status, cc."expiresAt" FROM "ConfirmationCard" cc
         WHERE cc."pieceId" = p.id AND cc.kind = 'approve_piece' ORDER BY cc."createdAt" DESC LIMIT 1
      ) card ON true
     WHERE e.id = ANY(${locked.map((l) => l.id)}::text[])`,
  );
  if (rows.length === 0) return out;
  const campaigns = new Map(
    (
      await hotSql<CampaignRow>(
        db,
        Prisma.sql`
        SELECT c.id AS "campaignId", c.name, c.format::text AS format, c.status::text AS "campaignStatus", c."endsAt", c."reviewGate"::text AS "reviewGate",
               c."audienceId", c."holdoutShare", c."frequencyCapContact", c."frequencyCapAccount", c."frequencyWindowDays", c."reentryAfterDays",
               c.headline, c."bodyTemplate", c."signOff", c."destinationUrl", c."designId", c."giftPriceCents",
               w.plan::text AS plan,
               f.status::text AS "contractStatus", f.format::text AS "contractFormat", f."unitCostCents", f."countryPrices", f.vendor, f.countries AS "contractCountries", f.size AS "contractSize", f."connectionId" AS "contractConnectionId", d.size AS "designSize",
               c."responseMode"::text AS "responseMode"
          FROM "Campaign" c
          JOIN "Workspace" w ON w.id = c."workspaceId"
          LEFT JOIN "FulfilmentContract" f ON f.id = c."fulfilmentContractId"
          LEFT JOIN "Design" d ON d.id = c."designId"
         WHERE c.id = ANY(${[...new Set(rows.map((r) => r.campaignId))]}::text[])`,
      )
    ).map((c) => [c.campaignId, c]),
  );
  // The event's row and its campaign's, apart: one spread object of both (some forty fields) per
  // event and action cost more CPU than the rest of this function.
  for (const r of rows) out.set(r.id, contextOf(r, campaigns.get(r.campaignId)!, now));
  return out;
}

function contextOf(r: EventRow, c: CampaignRow, now: Date): EventContext {
  const reviewStatus = r.cardStatus === "pending" && r.cardExpiresAt! <= now ? "expired" : r.cardStatus;
  return {
    snapshot: {
      now,
      eventStatus: r.status,
      campaign: {
        status: c.campaignStatus,
        endsAt: c.endsAt,
        reviewGate: c.reviewGate === "each_piece",
        giftClaim: c.format === "gift" && c.responseMode === "gift_claim",
      },
      enrollment: r.enrollmentId
        ? { arm: r.arm!, scheduledFor: r.scheduledFor, cancelled: r.enrollmentStatus === "cancelled" }
        : null,
      piece: r.pieceStatus ? { status: r.pieceStatus } : null,
      review: reviewStatus ? { status: reviewStatus } : null,
      reservation: r.reservationStatus ? { status: r.reservationStatus } : null,
      claim: r.claimStatus ? { status: r.claimStatus, expiresAt: r.claimExpiresAt! } : null,
      mailing: contractGate({
        plan: c.plan,
        format: c.format,
        contract: c.contractStatus ? { status: c.contractStatus, format: c.contractFormat! } : null,
      }),
    },
    event: {
      id: r.id,
      workspaceId: r.workspaceId,
      campaignId: r.campaignId,
      contactId: r.contactId,
      contactAccountId: r.contactAccountId,
      status: r.status,
    },
    campaign: {
      id: r.campaignId,
      workspaceId: r.workspaceId,
      name: c.name,
      format: c.format,
      audienceId: c.audienceId,
      holdoutShare: c.holdoutShare,
      frequencyCapContact: c.frequencyCapContact,
      frequencyCapAccount: c.frequencyCapAccount,
      frequencyWindowDays: c.frequencyWindowDays,
      reentryAfterDays: c.reentryAfterDays,
      headline: c.headline,
      bodyTemplate: c.bodyTemplate,
      signOff: c.signOff,
      destinationUrl: c.destinationUrl,
      designId: c.designId,
      plan: c.plan,
      giftPriceCents: c.giftPriceCents,
      contract: c.contractStatus
        ? {
            status: c.contractStatus,
            format: c.contractFormat!,
            unitCostCents: c.unitCostCents!,
            countryPrices: c.countryPrices,
            vendor: c.vendor!,
            countries: c.contractCountries ?? [],
            size: c.contractSize,
            connectionId: c.contractConnectionId,
          }
        : null,
      designSize: c.designSize,
    },
    enrollmentId: r.enrollmentId,
    pieceId: r.pieceId,
  };
}
