import type { Db } from "@/server/ground/db";
import { DEFAULT_COLORS } from "@/server/programme/brand/service";
import { GIFT_CATALOG, type TGiftItem } from "@/server/programme/designs/gift-catalog";
import { RESPONSE_CODE_PATTERN } from "@/server/programme/fulfilment/identifiers";
import { HANDWRITING_FONTS, TEXT_FONTS } from "@/server/ground/render/fonts";
import { designGiftOf, offeredGifts } from "@/server/programme/designs/gift-offer";
import type { TPageCallToAction } from "./page-settings";
import { latestShippingAddress, type TShippingAddress } from "./shipping-address";

const DAY = 86_400_000;
/** A personal landing page answers for this long after its piece was mailed; then its code is as unknown as any other. */
export const LANDING_PAGE_LIFETIME_DAYS = 365;

export interface PageBrand {
  companyName: string;
  colors: { primary: string; accent: string; text: string };
  fonts: {
    heading: (typeof TEXT_FONTS)[number];
    body: (typeof TEXT_FONTS)[number];
    handwriting: (typeof HANDWRITING_FONTS)[number];
  };
  hasLogo: boolean;
}

interface PageBase {
  code: string;
  piece: { id: string; workspaceId: string; campaignId: string; sid: string; mailedAt: Date | null };
  brand: PageBrand;
  recipient: { firstName: string; lastName: string; company: string | null };
  message: { headline: string; body: string; signOff: string };
}

export type TGiftClaimState = "open" | "claimed" | "declined" | "not_sent";

export type HostedPage =
  | (PageBase & {
      kind: "landing_page";
      callToAction: TPageCallToAction;
      meetingUrl: string | null;
      destinationUrl: string | null;
    })
  | (PageBase & {
      kind: "gift_claim";
      eventId: string;
      /** giftItem: the gift the note card names (the one claimed, once claimed); preselected: the choice the form starts with. */
      claim: {
        id: string;
        state: TGiftClaimState;
        giftItem: TGiftItem;
        preselected: TGiftItem;
        expiresAt: Date;
        decidedAt: Date | null;
      };
      gifts: { id: TGiftItem; name: string; description: string }[];
      address: TShippingAddress | null;
      /** Countries the campaign's printer ships to (ISO 3166-1 alpha-2). */
      countries: string[];
    });

export type LinkTarget =
  | { kind: "redirect"; piece: PageBase["piece"]; destinationUrl: string }
  | { kind: "page"; page: HostedPage };

const oneOf = <T extends string>(list: readonly T[], v: string | null | undefined, fallback: T): T =>
  (list as readonly string[]).includes(v ?? "") ? (v as T) : fallback;

/**
 * What a printed link's code leads to now: the destination (redirect campaigns) or the hosted
 * page with everything it shows, and only the recipient's own data. Null for anything that must
 * look like an unknown code: a malformed or unknown code, a piece never sent (cancelled, failed,
 * still in review), a landing page past its lifetime, a gift claim that expired or never opened.
 */
export async function resolveLink(db: Db, code: string, now = new Date()): Promise<LinkTarget | null> {
  if (!RESPONSE_CODE_PATTERN.test(code)) return null;
  const piece = await db.mailPiece.findUnique({
    where: { responseCode: code },
    select: {
      id: true,
      sid: true,
      workspaceId: true,
      campaignId: true,
      status: true,
      copy: true,
      createdAt: true,
      mailedAt: true,
      contact: { select: { firstName: true, lastName: true, account: { select: { name: true } } } },
      enrollment: { select: { entryEvent: { select: { id: true, status: true } } } },
      giftClaim: { select: { id: true, status: true, giftItem: true, expiresAt: true, decidedAt: true } },
      campaign: {
        select: {
          format: true,
          responseMode: true,
          pageCallToAction: true,
          meetingUrl: true,
          destinationUrl: true,
          giftOptions: true,
          design: { select: { giftItem: true } },
          fulfilmentContract: { select: { countries: true } },
        },
      },
    },
  });
  if (!piece) return null;
  const { campaign } = piece;
  const ref = {
    id: piece.id,
    workspaceId: piece.workspaceId,
    campaignId: piece.campaignId,
    sid: piece.sid,
    mailedAt: piece.mailedAt,
  };
  const gone = piece.status === "cancelled" || piece.status === "failed";
  if (campaign.responseMode === "redirect" || (campaign.responseMode === "gift_claim" && campaign.format !== "gift")) {
    if (gone || !campaign.destinationUrl) return null;
    return { kind: "redirect", piece: ref, destinationUrl: campaign.destinationUrl };
  }

  const base = async (): Promise<PageBase> => ({
    code,
    piece: ref,
    brand: await pageBrand(db, piece.workspaceId),
    // A deleted contact's piece still answers (the programme's record), without the person.
    recipient: {
      firstName: piece.contact?.firstName ?? "",
      lastName: piece.contact?.lastName ?? "",
      company: piece.contact?.account?.name ?? null,
    },
    message: messageOf(piece.copy),
  });

  if (campaign.responseMode === "landing_page") {
    if (gone || piece.status === "pending_review") return null;
    const since = piece.mailedAt ?? piece.createdAt;
    if (now.getTime() > since.getTime() + LANDING_PAGE_LIFETIME_DAYS * DAY) return null;
    return {
      kind: "page",
      page: {
        ...(await base()),
        kind: "landing_page",
        callToAction: campaign.pageCallToAction,
        meetingUrl: campaign.meetingUrl,
        destinationUrl: campaign.destinationUrl,
      },
    };
  }

  // A gift claim page exists once the lifecycle opened the claim.
  const claim = piece.giftClaim;
  const event = piece.enrollment?.entryEvent;
  if (!claim || !event) return null;
  const terminal = ["held_out", "completed", "skipped", "failed"].includes(event.status);
  let state: TGiftClaimState;
  if (claim.status === "declined") state = "declined";
  else if (claim.status === "claimed") state = gone ? "not_sent" : "claimed";
  else if (claim.status === "open" && claim.expiresAt > now && !terminal && !gone) state = "open";
  else return null;
  const gifts = offeredGifts({ giftOptions: campaign.giftOptions, designGift: designGiftOf(campaign.design) }).map(
    (id) => ({ id, ...GIFT_CATALOG[id] }),
  );
  // Preselected: the gift named so far (the design's, or the one claimed), when it is still offered.
  const chosen = gifts.find((g) => g.id === claim.giftItem)?.id ?? gifts[0].id;
  return {
    kind: "page",
    page: {
      ...(await base()),
      kind: "gift_claim",
      eventId: event.id,
      claim: {
        id: claim.id,
        state,
        giftItem: claim.giftItem as TGiftItem,
        preselected: chosen,
        expiresAt: claim.expiresAt,
        decidedAt: claim.decidedAt,
      },
      gifts,
      address: await latestShippingAddress(db, piece.id),
      countries: campaign.fulfilmentContract?.countries.length ? campaign.fulfilmentContract.countries : ["US"],
    },
  };
}

function messageOf(copy: unknown): PageBase["message"] {
  const c = (copy && typeof copy === "object" ? copy : {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === "string" ? v : "");
  return { headline: text(c.headline), body: text(c.body), signOff: text(c.signOff) };
}

/** The brand kit as a page uses it: colours, fonts, the company's name and whether there is a logo. */
export async function pageBrand(db: Db, workspaceId: string): Promise<PageBrand> {
  const workspace = await db.workspace.findUniqueOrThrow({
    where: { id: workspaceId },
    select: {
      name: true,
      brandKit: {
        select: {
          companyName: true,
          primaryColor: true,
          accentColor: true,
          textColor: true,
          headingFont: true,
          bodyFont: true,
          handwritingFont: true,
          logoType: true,
        },
      },
    },
  });
  const kit = workspace.brandKit;
  return {
    companyName: kit?.companyName || workspace.name,
    colors: kit ? { primary: kit.primaryColor, accent: kit.accentColor, text: kit.textColor } : DEFAULT_COLORS,
    fonts: {
      heading: oneOf(TEXT_FONTS, kit?.headingFont, "noto-sans"),
      body: oneOf(TEXT_FONTS, kit?.bodyFont, "noto-sans"),
      handwriting: oneOf(HANDWRITING_FONTS, kit?.handwritingFont, "caveat"),
    },
    hasLogo: !!kit?.logoType,
  };
}
