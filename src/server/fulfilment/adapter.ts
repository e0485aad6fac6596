import type { TPrintFormat } from "./sizes";

/**
 * A print vendor behind one interface: what it sells (its catalogue), what a piece costs (a
 * quote), and printing and mailing a piece. The built-in sandbox vendor (sandbox.ts) implements
 * it; a real vendor's adapter calls its API with the piece id as the idempotency key.
 */
export interface PrintJobRequest {
  pieceId: string;
  workspaceId: string;
  format: TPrintFormat;
  pdf: Uint8Array;
  addressLines: string[];
}

export interface PrintJobResult {
  vendorRef: string;
  printedAt: Date;
  /** Null while the vendor has printed but not yet handed the piece to the post. */
  mailedAt: Date | null;
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

export interface PriceQuote {
  /** Per piece, printing and postage, per destination country. */
  perCountry: { country: string; unitCostCents: number; printCents: number; postageCents: number }[];
  /** The highest of them: what a contract over these countries reserves per piece. */
  unitCostCents: number;
  quotedAt: string;
}

export interface FulfilmentAdapter {
  readonly vendor: string;
  catalogue(): VendorCatalogue;
  /** The price of one piece of this product to each country. Throws a sentence when it does not sell it. */
  quote(p: { format: TPrintFormat; size: string; countries: string[] }): Promise<PriceQuote>;
  /** Submits a piece for printing and mailing. Submitting the same piece again returns the same job. */
  submit(job: PrintJobRequest): Promise<PrintJobResult>;
  /**
   * Submits many pieces whose print files the service stores (MailPiece.proofPdf), in one call, as
   * `submit` does each: the lifecycle's batches use it when the vendor offers it. A piece already
   * submitted gets its first job back.
   */
  submitStored?(pieceIds: string[]): Promise<Map<string, PrintJobResult>>;
}
