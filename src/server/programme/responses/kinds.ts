import type { ResponseKind } from "@/generated/prisma/enums";

/**
 * What the service observes itself (never reported through the REST conversion endpoint): how a
 * printed link was followed, and what the recipient did on the campaign's hosted page.
 */
export const RESPONSE_KINDS = [
  "scan",
  "click",
  "page_view",
  "reply",
  "meeting_click",
  "site_click",
  "gift_claim",
  "address_change",
  "gift_decline",
] as const satisfies readonly ResponseKind[];
export type TResponseKind = (typeof RESPONSE_KINDS)[number];

/** The actions taken on a hosted page (the rest are how the printed link was followed). */
export const PAGE_ACTION_KINDS = [
  "page_view",
  "reply",
  "meeting_click",
  "site_click",
  "gift_claim",
  "address_change",
  "gift_decline",
] as const satisfies readonly TResponseKind[];
export type TPageActionKind = (typeof PAGE_ACTION_KINDS)[number];

export const responseKindDescriptions: Record<TResponseKind, string> = {
  scan: "The printed QR code was scanned.",
  click: "The printed link was typed or tapped.",
  page_view:
    "The hosted page was shown (a personal landing page or a gift claim page); loads within 30 minutes of the last recorded view are one visit.",
  reply: "The recipient sent a reply with the landing page's form; `reply.text` holds it.",
  meeting_click:
    "The recipient opened the landing page's meeting link (clicks within 30 minutes of the last one count once).",
  site_click:
    "The recipient followed the landing page's link to the destination site (clicks within 30 minutes of the last one count once).",
  gift_claim: "The recipient claimed the gift; `gift` names the one chosen. It ships to the latest shipping address.",
  address_change:
    "The recipient corrected the gift's shipping address; `address` is the new version (the original stays).",
  gift_decline: "The recipient declined the gift: nothing ships.",
};

/** Short labels for the owner's pages. */
export const responseKindLabels: Record<TResponseKind, string> = {
  scan: "QR code scanned",
  click: "Link typed or tapped",
  page_view: "Page viewed",
  reply: "Reply sent",
  meeting_click: "Meeting link clicked",
  site_click: "Site link clicked",
  gift_claim: "Gift claimed",
  address_change: "Address changed",
  gift_decline: "Gift declined",
};
