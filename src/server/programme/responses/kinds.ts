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
