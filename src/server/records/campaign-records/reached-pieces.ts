import type { Prisma } from "@/generated/prisma/client";

/**
 * Which mailed pieces reached a real person: a real vendor's, printed with a live key. A piece
 * the sandbox fulfilled, or a vendor printed in test mode (Lob's test key), went through every
 * step but was never put in anyone's mailbox: it is counted apart, as simulated, never as mailed.
 */
export const REALLY_MAILED = {
  status: "mailed",
  vendor: { not: "sandbox" },
  vendorMode: "live",
} satisfies Prisma.MailPieceWhereInput;

export const SIMULATED_MAILED = {
  status: "mailed",
  OR: [{ vendor: "sandbox" }, { vendorMode: { not: "live" } }, { vendorMode: null }],
} satisfies Prisma.MailPieceWhereInput;
