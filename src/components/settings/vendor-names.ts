/** How each fulfilment vendor is named to people, and what "test mode" means for it. */
export const VENDOR_NAMES: Record<string, string> = {
  sandbox: "Sandbox printer",
  lob: "Lob",
  handwrytten: "Handwrytten",
  goody: "Goody",
};

export const vendorName = (vendor: string) => VENDOR_NAMES[vendor] ?? vendor;

/** The words after a test-mode contract's vendor: "(test mode: nothing is printed)". */
export const testModeWords = (vendor: string) =>
  vendor === "handwrytten"
    ? "test mode: nothing is written or mailed"
    : vendor === "goody"
      ? "test mode: nothing is sent"
      : "test mode: nothing is printed";
