import type { AddressFields } from "@/server/records/addresses/normalise";
import type { AddressVerifier, TVerification, TVerificationVerdict } from "./types";

/**
 * The sandbox verifier: free, instant, and it looks nothing up. Like a vendor's test mode (Lob's
 * test keys answer only their documented test addresses) it answers by what the address says, on
 * the street lines (address lines 1 and 2, any case):
 *
 * - a line containing `undeliverable` → undeliverable;
 * - a line containing `missing unit` → deliverable_missing_unit;
 * - a line containing `unnecessary unit` → deliverable_unnecessary_unit;
 * - anything else → not_verified: it says nothing about a real address, deliverable or not.
 *
 * So a demo or a test can make each verdict on purpose, and no real address is called deliverable.
 * The standardised address it returns is the address given.
 */
export class SandboxVerifier implements AddressVerifier {
  readonly name = "sandbox";
  readonly mode = "sandbox" as const;
  readonly label = "Sandbox verifier (verifies nothing: test answers only, free)";
  costCents(): number {
    return 0;
  }
  async verify(address: AddressFields): Promise<TVerification> {
    const verdict = sandboxVerdict(address);
    return { verdict, vendorVerdict: verdict, standardised: address };
  }
}

export function sandboxVerdict(a: Pick<AddressFields, "addressLine1" | "addressLine2">): TVerificationVerdict {
  const street = `${a.addressLine1 ?? ""}\n${a.addressLine2 ?? ""}`.toLowerCase();
  if (street.includes("undeliverable")) return "undeliverable";
  if (street.includes("missing unit")) return "deliverable_missing_unit";
  if (street.includes("unnecessary unit")) return "deliverable_unnecessary_unit";
  return "not_verified";
}
