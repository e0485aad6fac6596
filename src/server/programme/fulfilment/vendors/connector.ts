/**
 * The one shape every real vendor has for connecting a workspace's own account
 * (fulfilment.connectVendor): what it fulfils, whether it sends webhooks (then a signing secret is
 * asked for and a webhook URL shown), and a check of the key against the vendor that creates
 * nothing. A vendor adds its id to CONNECTABLE_VENDORS and its connector to CONNECTORS (connectors.ts);
 * its FulfilmentAdapter (../adapter.ts) goes into ../registry.ts.
 */

/** The vendors a workspace connects its own account of. */
export const CONNECTABLE_VENDORS = ["lob", "handwrytten", "goody"] as const;
export type TConnectableVendor = (typeof CONNECTABLE_VENDORS)[number];

export const isConnectableVendor = (v: string): v is TConnectableVendor =>
  (CONNECTABLE_VENDORS as readonly string[]).includes(v);

/** What a key check found: the account's mode and what to keep about it (never secret). */
export interface ConnectedAccount {
  mode: "test" | "live";
  settings?: Record<string, unknown>;
}

export interface VendorConnector {
  vendor: TConnectableVendor;
  /** How the vendor is named to people. */
  label: string;
  /** What it fulfils, in words for Settings → Printing ("postcards and letters"). */
  fulfils: string;
  /** True when the vendor posts events to us (a signing secret is required and a webhook URL shown). */
  webhooks: boolean;
  /**
   * Checks the key (and secret) with the vendor without creating anything. Throws an AppError with
   * a sentence saying what to do when the vendor refuses or cannot be reached; nothing is saved then.
   */
  check(p: { apiKey: string; webhookSecret: string | null }): Promise<ConnectedAccount>;
}
