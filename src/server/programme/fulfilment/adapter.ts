import type { TPrintFormat } from "./sizes";

/**
 * A print vendor behind one interface: what it sells (its catalogue), what a piece costs (a
 * quote), and printing and mailing a piece. The built-in sandbox vendor (sandbox.ts) implements
 * it; a real vendor's adapter calls its API with the piece id as the idempotency key.
 */
/** A postal address as a vendor takes it (Lob prints it on the piece itself). */
export interface PostalAddress {
  name: string;
  company?: string | null;
  line1: string;
  line2?: string | null;
  city: string;
  region?: string | null;
  postalCode: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

export interface PrintJobRequest {
  pieceId: string;
  workspaceId: string;
  format: TPrintFormat;
  pdf: Uint8Array;
  addressLines: string[];
  /** The contract's product size (e.g. 6x9, us_letter). */
  size?: string | null;
  /** Structured recipient and sender (vendors that print the address themselves need them). */
  to?: PostalAddress | null;
  from?: PostalAddress | null;
  /** The workspace's account at the vendor (PrintVendorConnection) the contract prints through. */
  connectionId?: string | null;
  /** The piece's personalised copy as printed (vendors that write the message themselves need it: Handwrytten). */
  copy?: { headline?: string; body?: string; signOff?: string } | null;
  /**
   * "retry" when an earlier attempt may have reached the vendor (its answer was lost): a vendor
   * without idempotency keys looks its order up by the piece id before creating one.
   */
  attempt?: "first" | "retry";
}

/** A tracking event of a piece, as the service keeps it. */
export interface TrackingEvent {
  status: TTrackingStatus;
  at: Date;
  /** The vendor's id of the event, when it has one. */
  eventId?: string | null;
}

export interface PrintJobResult {
  vendorRef: string;
  printedAt: Date;
  /** Null while the vendor has printed but not yet handed the piece to the post. */
  mailedAt: Date | null;
  /** "test" when the vendor printed nothing for real (a test key); absent for the sandbox. */
  mode?: "test" | "live";
  /** What the vendor knows of the piece's way through the post (reconciliation reads). */
  tracking?: TrackingEvent[];
  /** The vendor cancelled the piece (it will never be mailed). */
  cancelled?: boolean;
}

/** Where a piece is in the post: the vendor's tracking events, by name. */
export const TRACKING_STATUSES = [
  "mailed",
  "in_transit",
  "in_local_area",
  "processed_for_delivery",
  "delivered",
  "re_routed",
  "returned_to_sender",
] as const;
export type TTrackingStatus = (typeof TRACKING_STATUSES)[number];

/** Why a vendor did not take (or keep) a piece: closed reasons kept on the piece. */
export type TVendorIssue = "address_refused" | "file_refused" | "unconfirmed" | "cancelled_at_vendor";

/**
 * A vendor's answer as the service acts on it: `reason` says what happens next (refused pieces
 * go to a person, rate limits are retried with back-off, a revoked key suspends the contract).
 */
export class VendorError extends Error {
  constructor(
    message: string,
    readonly reason:
      | "address_refused"
      | "file_refused"
      | "rate_limited"
      /** The vendor account's plan limit: the owner's to raise; the key still works. */
      | "account_limit"
      /** The vendor account cannot mail live yet (billing address, payment method, email): the owner's to finish. */
      | "account_incomplete"
      | "key_revoked"
      | "not_found"
      | "not_cancellable"
      /** The vendor could not be reached or answered 5xx: tried again later. */
      | "vendor_unavailable",
    readonly detail: { status?: number; code?: string; retryAfterMs?: number } = {},
  ) {
    super(message);
    this.name = "VendorError";
  }
}

export interface VendorCatalogue {
  vendor: string;
  /** How the vendor is named to people. */
  label: string;
  /** One sentence: what it is (for the sandbox: that nothing is really printed). */
  description: string;
  /** The sizes it sells per format (see sizes.ts). */
  products: { format: TPrintFormat; sizes: string[] }[];
  /** ISO 3166-1 alpha-2 codes it prints and mails to. */
  countries: string[];
}

// A type, not an interface: a contract stores its quote as JSON, which needs the index signature only a type has.
export type PriceQuote = {
  /** Per piece, printing and postage, per destination country. */
  perCountry: { country: string; unitCostCents: number; printCents: number; postageCents: number }[];
  /** The highest of them: what a contract over these countries reserves per piece. */
  unitCostCents: number;
  quotedAt: string;
};

export interface FulfilmentAdapter {
  readonly vendor: string;
  /** For a vendor that sends no webhooks: how often a piece it has is read back (`reconcile`). */
  readonly statusPollMs?: number;
  catalogue(): VendorCatalogue;
  /** The price of one piece of this product to each country. Throws a sentence when it does not sell it. */
  quote(p: {
    format: TPrintFormat;
    size: string;
    countries: string[] /** The owner's price per piece, for vendors whose price the owner's own plan sets (Lob). */;
    unitCostCents?: number;
  }): Promise<PriceQuote>;
  /** Submits a piece for printing and mailing. Submitting the same piece again returns the same job. */
  submit(job: PrintJobRequest): Promise<PrintJobResult>;
  /**
   * Submits many pieces whose print files the service stores (a draft's or the piece's own: pieces/print-file.ts), in one call, as
   * `submit` does each: the lifecycle's batches use it when the vendor offers it. A piece already
   * submitted gets its first job back.
   */
  submitStored?(pieceIds: string[]): Promise<Map<string, PrintJobResult>>;
  /**
   * Reads what the vendor knows of a piece it already has (never creates): the reconciliation
   * read for a piece whose events are late.
   */
  reconcile?(job: {
    pieceId: string;
    vendorRef: string;
    format: TPrintFormat;
    connectionId?: string | null;
  }): Promise<PrintJobResult>;
  /** Cancels a piece the vendor has not sent yet: true when cancelled, false when it is too late. */
  cancel?(job: {
    pieceId: string;
    vendorRef: string;
    format: TPrintFormat;
    connectionId?: string | null;
  }): Promise<boolean>;
}
