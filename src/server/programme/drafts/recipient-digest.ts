import { createHash } from "node:crypto";
import { lookUp } from "@/server/programme/designs/merge-fields";
import { addressBlock, mergeValues, type RecipientContact } from "@/server/programme/designs/recipient";

/**
 * What a recipient's piece prints of them, as one short string: the values of the merge fields its
 * copy uses (`fields`: the names in its templates, as `{{…}}` writes them), and the address block
 * as printed (name, title and company, then the postal address lines as the country's post writes
 * them), with the country the block is laid out for. The renderer stores it on the draft it renders
 * (render-draft.ts), and the lifecycle and the drafts' summary compute it again from the contact as
 * it is now: the same function both times, so a draft is printed as it is only while its recipient
 * would still be printed the same.
 *
 * The digest names the fields it covers (`2.<fields>.<hash>`), so it is computed again over the
 * same fields without the templates: a change to a field the copy does not use (a custom column
 * no merge field names, an email the copy never prints) leaves the draft current. A digest of the
 * first kind (a bare hash, on drafts rendered before digests named their fields) covered every merge value and is still
 * read as it was made.
 *
 * Pure (no database, no clock): it runs on the drafts' render threads as on the calling thread.
 * Computed from what is printed, not from the raw columns, so a change that prints nothing
 * different (a phone number, an address's verification status) leaves the draft current.
 */
export function recipientDigest(
  contact: RecipientContact & { customFields?: unknown },
  fields: readonly string[],
): string {
  const names = [...new Set(fields)].sort();
  const values = mergeValues(contact);
  return `2.${Buffer.from(JSON.stringify(names)).toString("base64url")}.${hashOf({ v: 2, merge: names.map((f) => lookUp(values, f) ?? null), ...printedBlock(contact) })}`;
}

/** The first kind of digest: every merge value (custom fields included), whatever the copy used. */
function digestV1(contact: RecipientContact & { customFields?: unknown }): string {
  return hashOf({ v: 1, merge: mergeValues(contact), ...printedBlock(contact) });
}

const printedBlock = (contact: RecipientContact) => ({
  name: `${contact.firstName} ${contact.lastName}`.trim(),
  lines: addressBlock({ ...contact, company: contact.account?.name ?? null }),
  country: contact.country,
});

const hashOf = (printed: object) => createHash("sha256").update(canonicalJson(printed)).digest("base64url");

/** The same digest, over the fields a stored digest names, for the contact as it is now (null: not a digest this code made). */
function digestLike(stored: string, contact: RecipientContact & { customFields?: unknown }): string | null {
  if (!stored.startsWith("2.")) return digestV1(contact);
  const encoded = stored.slice(2, stored.lastIndexOf("."));
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  return Array.isArray(fields) && fields.every((f) => typeof f === "string") ? recipientDigest(contact, fields) : null;
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
export function draftRecipientState(
  storedDigest: string | null,
  contact: RecipientContact & { customFields?: unknown },
): "current" | "changed" | "unknown" {
  if (storedDigest === null) return "unknown";
  return storedDigest === digestLike(storedDigest, contact) ? "current" : "changed";
}
