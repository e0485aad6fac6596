/**
 * A print vendor behind one interface. The built-in sandbox vendor (sandbox.ts) implements it;
 * a real vendor's adapter would call its API with the piece id as the idempotency key.
 */
export interface PrintJobRequest {
  pieceId: string;
  workspaceId: string;
  format: "postcard" | "letter" | "handwritten" | "gift";
  pdf: Uint8Array;
  addressLines: string[];
}

export interface PrintJobResult {
  vendorRef: string;
  printedAt: Date;
  /** Null while the vendor has printed but not yet handed the piece to the post. */
  mailedAt: Date | null;
}

export interface FulfilmentAdapter {
  readonly vendor: string;
  /** Submits a piece for printing and mailing. Submitting the same piece again returns the same job. */
  submit(job: PrintJobRequest): Promise<PrintJobResult>;
}
