/**
 * Gate 5: mail reaches a mailbox only from a paid workspace, through an approved fulfilment
 * contract for the campaign's format.
 */
export function contractGate(p: {
  plan: "audit" | "paid";
  format: string;
  contract: { status: string; format: string } | null;
}): "ok" | "mailing_disabled" | "no_fulfilment_contract" {
  if (p.plan !== "paid") return "mailing_disabled";
  if (p.contract?.status !== "approved" || p.contract.format !== p.format) return "no_fulfilment_contract";
  return "ok";
}
