import { createHmac, timingSafeEqual } from "node:crypto";
import { keyring } from "@/server/ground/platform/secret-box";
import { baseUrl } from "@/server/ground/platform/base-url";

/** How long a print file URL handed to a vendor stays valid (Lob downloads it while creating the piece). */
export const PRINT_FILE_URL_TTL_MS = 24 * 60 * 60_000;

export type TPrintFileSide = "front" | "back" | "file";

const signature = (pieceId: string, side: string, expires: number) =>
  createHmac("sha256", Buffer.concat([Buffer.from("print-file:"), keyring().current.key]))
    .update(`${pieceId}.${side}.${expires}`)
    .digest("hex");

/**
 * A URL the vendor downloads a piece's print file from, signed with the server's secret (no
 * session): {base_url}/api/print-files/{pieceId}/{side}?expires=…&signature=…
 */
export function signedPrintFileUrl(pieceId: string, side: TPrintFileSide, now = new Date()): string {
  const expires = now.getTime() + PRINT_FILE_URL_TTL_MS;
  return `${baseUrl()}/api/print-files/${pieceId}/${side}?expires=${expires}&signature=${signature(pieceId, side, expires)}`;
}

/** Whether a print file URL's signature is ours and not expired. */
export function verifyPrintFileSignature(
  pieceId: string,
  side: string,
  expires: string | null,
  given: string | null,
  now = new Date(),
): boolean {
  const at = Number(expires);
  if (!Number.isFinite(at) || at < now.getTime() || !given || !/^[0-9a-f]{64}$/.test(given)) return false;
  return timingSafeEqual(Buffer.from(signature(pieceId, side, at), "hex"), Buffer.from(given, "hex"));
}

/**
 * The file a vendor prints: the whole PDF for a letter, and for a postcard its front (page 1) or
 * back (page 2) as a one-page PDF, as Lob takes them.
 */
export async function printFileOf(pdf: Uint8Array, side: TPrintFileSide): Promise<Uint8Array> {
  if (side === "file") return pdf;
  const { PDFDocument } = await import("pdf-lib");
  const source = await PDFDocument.load(pdf);
  const index = side === "front" ? 0 : 1;
  if (index >= source.getPageCount()) throw new Error(`The print file has no ${side} page.`);
  const out = await PDFDocument.create();
  const [page] = await out.copyPages(source, [index]);
  out.addPage(page);
  return out.save();
}
