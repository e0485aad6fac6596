import { createHash } from "node:crypto";
import { addressBlock, mergeValues, type RecipientContact } from "@/server/designs/recipient";

/**
 * What a recipient's piece prints of them, as one short string: the merge values the renderer
 * fills the copy with (designs/recipient.ts mergeValues: name, title, company, city, custom
 * fields…) and the address block as printed (name, title and company, then the postal address
 * lines as the country's post writes them), with the country the block is laid out for. The
 * renderer stores it on the draft it renders (render-draft.ts), and the lifecycle and the drafts'
 * summary compute it again from the contact as it is now: the same function both times, so a draft
 * is printed as it is only while its recipient would still be printed the same.
 *
 * Pure (no database, no clock): it runs on the drafts' render threads as on the calling thread.
 * Computed from what is printed, not from the raw columns, so a change that prints nothing
 * different (a phone number, an address's verification status) leaves the draft current.
 */
export function recipientDigest(contact: RecipientContact & { customFields?: unknown }): string {
  const printed = {
    v: 1,
    merge: mergeValues(contact),
    name: `${contact.firstName} ${contact.lastName}`.trim(),
    lines: addressBlock({ ...contact, company: contact.account?.name ?? null }),
    country: contact.country,
  };
  return createHash("sha256").update(canonicalJson(printed)).digest("base64url");
}

/** JSON with every object's keys sorted, so the same values always give the same text (custom fields come in whatever order their JSON was read). */
function canonicalJson(value: unknown): string {
  if (value === undefined) return "null";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/**
 * Whether a draft still prints its recipient as they are now, judged by its stored digest:
 * `current` (the same), `changed` (the contact or its account changed what would be printed since
 * the draft was rendered) or `unknown` (a draft rendered before digests were kept).
 *
 * An `unknown` draft is rendered again at piece time, as a changed one is: no cheap check can
 * prove its data current. Its contact's `updatedAt` is no such proof: a bulk update stamps the
 * writing transaction's start (`now()`), an account renamed by a CRM sync stamps the account only,
 * and a draft's `renderedAt` is taken after its contact was read, so a correction made while the
 * draft was being rendered would pass for older than the draft. Rendering again keeps the draft's
 * codes and its recipient's own copy; the cost is one render per such recipient, once.
 */
export function draftRecipientState(storedDigest: string | null, contact: RecipientContact & { customFields?: unknown }): "current" | "changed" | "unknown" {
  if (storedDigest === null) return "unknown";
  return storedDigest === recipientDigest(contact) ? "current" : "changed";
}
