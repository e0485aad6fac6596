/**
 * Print vendors that print the recipient's address block themselves, by adapter name, with the
 * name a preview shows: Lob prints the address, postage and barcode in its ink-free area of a
 * postcard's back and both window addresses of a letter (address_placement top_first_page), so the
 * print file it receives leaves those areas blank. The sandbox prints the file as it is.
 */
const VENDORS_PRINTING_ADDRESS: Record<string, string> = { lob: "Lob" };

/** The name of the contract's vendor if it prints the address block itself, else null. */
export const vendorPrintingAddress = (vendor: string | null | undefined): string | null =>
  vendor ? (VENDORS_PRINTING_ADDRESS[vendor] ?? null) : null;
