import { SERVICE_NAME } from "@/server/ground/platform/version";
import { MAILABILITY_REASONS, REASON_DETAILS, REASON_LABELS } from "@/server/programme/mailability/reasons";
import { VERIFICATION_MAX_AGE_DAYS } from "@/server/programme/mailability/verifiers/cache";
import { AUDIT_MAX_AGE_DAYS } from "@/server/programme/mailability/staleness";

/** Every mailability reason, the statuses, verification and how the lifecycle uses the verdict: /docs/mailability.md and an MCP resource. */
export function mailabilityMarkdown(base: string): string {
  return `# Mailability: statuses and reasons of ${SERVICE_NAME}

The mailability audit (\`audits_run\`, \`audits_get\`; the Audits page) gives each contact of an audience a verdict: \`mailable\`,
\`fixable\` (a likely correction exists; \`contacts_apply_fix\` accepts it) or \`unmailable\`, with every reason that applies.
The lifecycle's suppression and address gates apply the same verdict before printing, so the audit and the mail agree.
The same text for people: ${base}/docs/mailability

## Reasons

| reason | in short | what it means | what it stops | what to do |
|---|---|---|---|---|
${MAILABILITY_REASONS.map((r) => `| \`${r}\` | ${REASON_LABELS[r]} | ${REASON_DETAILS[r].means} | ${REASON_DETAILS[r].blocks} | ${REASON_DETAILS[r].fix} |`).join("\n")}

## Statuses

- \`mailable\`: no reason that stops mail in the format judged (informational reasons may be listed).
- \`fixable\`: the address as the service normalises it (ISO country code, the region as the country's post writes it, the country's own form of the
  postal code, spaces tidied) would be mailable; that normalised form is the suggested fix.
- \`unmailable\`: a reason stops mail and no normalisation mends it; a person fixes the contact (or the CRM).

An audience audit judges for any format (the smallest address block, a 4 × 6 in postcard's; a PO box only informs). A campaign's
audit (\`audits_run { campaignId }\`) judges for the campaign's format, its design's address block and its printer's countries:
that is the audit go-live readiness asks for, and it goes out of date when contacts join or change, suppressions are added, the
campaign's format, design or printer changes, or after ${AUDIT_MAX_AGE_DAYS} days.

## Address verification

With \`verify: true\` each distinct normalised address is checked by the service's address verifier: the sandbox (free, and it
verifies nothing: a street line containing "undeliverable", "missing unit" or "unnecessary unit" gets that test answer, any other
address is \`not_verified\`) or Lob's US and international verifications when the service is configured with a Lob API key. A Lob
test key (\`test_…\`) answers only Lob's test addresses: any other address is \`not_verified\` ("not verified (test mode)"), never
undeliverable. \`not_verified\` adds no reason; \`audits_get\` says the verifier's \`mode\` (\`live\`, \`test\`, \`sandbox\`) and
how many contacts' addresses were not verified (\`notVerified\`). Answers are kept per workspace, verifier mode and normalised
address for ${VERIFICATION_MAX_AGE_DAYS} days (a test key's answers never serve a live key), so an address is paid for once; \`audits_estimate\` gives
the price per verification and the run's estimate first. Lob's \`deliverable_missing_unit\`, \`deliverable_incorrect_unit\` and
international \`deliverable_missing_info\` become \`missing_unit\`; \`undeliverable\` and \`no_match\` become \`undeliverable\`;
\`deliverable_unnecessary_unit\` is mailable.

## In the lifecycle

An entry event skipped by these gates keeps its REST \`skipReason\` (\`suppressed\`, \`address_invalid\`, \`address_duplicate\`), and
\`entry_events_get\` adds \`mailabilityReasons\`: the reasons above that stopped it. \`suppressed\` maps to \`suppressed\`,
\`duplicate_contact\` (another contact record of the same person, same name at the same address, already enrolled in the campaign) to \`address_duplicate\`, and every other reason that stops
mail to \`address_invalid\`. The same contact entering a campaign a second time is skipped \`already_enrolled\` before these gates
(see /docs/lifecycle).
`;
}
