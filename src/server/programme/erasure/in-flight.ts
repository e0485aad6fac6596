/**
 * A piece is in flight while a printer has it and it is not mailed yet: printed (at the vendor), or
 * handed to the vendor (vendorSubmittedAt) and not yet recorded. Deleting its contact then is
 * refused rather than guessed at: the printer would still print and mail the person's name and
 * address, and cancelling at a printer is a call outside the transaction that may fail. Ending the
 * campaign cancels such pieces at the printer (entry/cancel-pieces.ts); otherwise they are mailed
 * within a few business days (the sandbox within minutes), and the deletion then goes through.
 */
export interface TPieceForErasure {
  id: string;
  status: string;
  vendor: string;
  vendorSubmittedAt: Date | null;
  campaign: { name: string };
}

const DONE = new Set(["mailed", "cancelled", "failed"]);

export function findInFlight<T extends TPieceForErasure>(pieces: T[]): T[] {
  return pieces.filter((pc) => pc.status === "printed" || (pc.vendorSubmittedAt !== null && !DONE.has(pc.status)));
}

/** The refusal, naming the pieces (at most five) and when to retry. */
export function inFlightSentence(pieces: TPieceForErasure[]): string {
  const named = pieces
    .slice(0, 5)
    .map((pc) => `${pc.id} (“${pc.campaign.name}”, at ${pc.vendor === "sandbox" ? "the sandbox printer" : pc.vendor})`)
    .join(", ");
  const more = pieces.length > 5 ? ` and ${pieces.length - 5} more` : "";
  const n = pieces.length === 1 ? "1 piece for this contact is" : `${pieces.length} pieces for this contact are`;
  return `${n} at the printer and not mailed yet: ${named}${more}. Nothing was deleted. Try again once they are mailed (usually within a few business days; pieces_get shows their status), or end the campaign first to cancel them at the printer.`;
}
