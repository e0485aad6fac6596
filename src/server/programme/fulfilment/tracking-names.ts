import type { TTrackingStatus } from "./adapter";

/** Lob's tracking event names (TrackingEventNormal.name) as the service's tracking statuses. */
const BY_NAME: Record<string, TTrackingStatus> = {
  Mailed: "mailed",
  "In Transit": "in_transit",
  "In Local Area": "in_local_area",
  "Processed for Delivery": "processed_for_delivery",
  Delivered: "delivered",
  "Re-Routed": "re_routed",
  "Returned to Sender": "returned_to_sender",
};

export const trackingStatusOfName = (name: string): TTrackingStatus | null => BY_NAME[name] ?? null;

/** Lob's webhook event types (postcard.in_transit, letter.re-routed…) as tracking statuses. */
export function trackingStatusOfEventType(type: string): TTrackingStatus | null {
  const m =
    /^(postcard|letter)\.(mailed|in_transit|in_local_area|processed_for_delivery|delivered|re-routed|returned_to_sender)$/.exec(
      type,
    );
  if (!m) return null;
  return (m[2] === "re-routed" ? "re_routed" : m[2]) as TTrackingStatus;
}

/** How far along each status is: out-of-order events never move a piece backwards. */
export const TRACKING_RANK: Record<TTrackingStatus, number> = {
  mailed: 1,
  in_transit: 2,
  in_local_area: 3,
  re_routed: 4,
  processed_for_delivery: 5,
  delivered: 6,
  returned_to_sender: 7,
};

export const trackingLabels: Record<TTrackingStatus, string> = {
  mailed: "Mailed",
  in_transit: "In transit",
  in_local_area: "In local area",
  processed_for_delivery: "Processed for delivery",
  delivered: "Delivered",
  re_routed: "Re-routed",
  returned_to_sender: "Returned to sender",
};
