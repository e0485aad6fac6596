import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { csvLine } from "@/server/ground/platform/csv-line";
import { normaliseAddress, type TAddressFix } from "@/server/records/addresses/normalise";
import { REASON_LABELS, type TMailabilityReason } from "./reasons";

const HEADER = [
  "Contact ID",
  "First Name",
  "Last Name",
  "Email",
  "Company",
  "Address Line 1",
  "Address Line 2",
  "City",
  "State/Province",
  "Postal Code",
  "Country",
  "Status",
  "Reasons",
  "Reason Codes",
  "Suggested Fix",
  "Normalised Address",
];

/**
 * An audit's contacts with a reason (or not mailable) as CSV, for fixing in the CRM: 1,000 at a time, with the
 * headers an import maps back by itself. Formula-like values are escaped (csvLine).
 */
export async function* auditProblemsCsv(
  db: Db,
  p: { workspaceId: string; auditId: string; reason?: TMailabilityReason | null },
): AsyncGenerator<string> {
  const audit = await db.mailabilityAudit.findFirst({
    where: { id: p.auditId, workspaceId: p.workspaceId },
    select: { id: true },
  });
  if (!audit) throw new AppError("not_found", "No such audit in this workspace.");
  yield `\uFEFF${csvLine(HEADER)}`;
  let after: string | null = null;
  for (;;) {
    const rows = await db.mailabilityResult.findMany({
      where: {
        auditId: audit.id,
        workspaceId: p.workspaceId,
        OR: [{ status: { not: "mailable" } }, { reasons: { isEmpty: false } }],
        ...(p.reason ? { reasons: { has: p.reason } } : {}),
        ...(after ? { contactId: { gt: after } } : {}),
      },
      orderBy: { contactId: "asc" },
      take: 1000,
      include: {
        contact: {
          select: {
            firstName: true,
            lastName: true,
            email: true,
            addressLine1: true,
            addressLine2: true,
            city: true,
            region: true,
            postalCode: true,
            country: true,
            account: { select: { name: true } },
          },
        },
      },
    });
    if (!rows.length) return;
    const last: string = rows[rows.length - 1].contactId;
    let out = "";
    for (const r of rows) {
      const c = r.contact;
      const reasons = r.reasons as TMailabilityReason[];
      const suggestion = Object.entries((r.suggestion as TAddressFix | null) ?? {})
        .map(([f, v]) => `${f}: ${v}`)
        .join("; ");
      const n = normaliseAddress(c);
      const normalised = [n.addressLine1, n.addressLine2, n.city, n.region, n.postalCode, n.country]
        .filter(Boolean)
        .join(", ");
      out += csvLine([
        r.contactId,
        c.firstName,
        c.lastName,
        c.email,
        c.account?.name ?? null,
        c.addressLine1,
        c.addressLine2,
        c.city,
        c.region,
        c.postalCode,
        c.country,
        r.status,
        reasons.map((x) => REASON_LABELS[x] ?? x).join("; "),
        reasons.join(" "),
        suggestion,
        normalised,
      ]);
    }
    yield out;
    after = last;
  }
}
