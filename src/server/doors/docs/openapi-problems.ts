import type { AppErrorCode } from "@/server/ground/errors";
import { problemTable } from "@/server/ground/errors";
import type { RestOperation } from "@/server/doors/rest/operations";

/** Problems every authenticated REST operation can answer. */
const authProblems: AppErrorCode[] = ["unauthenticated", "insufficient_scope", "rate_limited"];
/** Problems of the public calculators. */
const publicProblems: AppErrorCode[] = ["invalid_parameters", "rate_limited"];
/** Problems of reading a JSON body. */
const bodyProblems: AppErrorCode[] = [
  "malformed_request",
  "payload_too_large",
  "unsupported_media_type",
  "validation_failed",
];

/** Every problem an operation can answer, grouped by HTTP status (500 is documented as `default`). */
export function problemsByStatus(op: RestOperation): Map<number, AppErrorCode[]> {
  const codes = new Set<AppErrorCode>(
    op.requiredScope
      ? [...authProblems, ...(op.method === "GET" ? [] : bodyProblems), ...op.problems]
      : [...publicProblems, ...op.problems],
  );
  const byStatus = new Map<number, AppErrorCode[]>();
  for (const code of codes) {
    const status = problemTable[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus.entries()].sort(([a], [b]) => a - b));
}

/** An example problem document of a code, as the service writes it. */
export function exampleProblem(code: AppErrorCode, base: string, instance: string): Record<string, unknown> {
  const def = problemTable[code];
  const example: Record<string, unknown> = {
    type: `${base}/problems/${def.slug}`,
    title: def.title,
    status: def.status,
    detail: exampleDetail[code] ?? def.title,
    instance,
  };
  if (code === "invalid_parameters") {
    example.errors = [
      {
        parameter: "baselineRate",
        detail: "baselineRate must be at most 0.9 (conversion rate of the holdout arm, as a fraction: 7% is 0.07).",
      },
    ];
  }
  if (code === "validation_failed") {
    example.errors = [
      {
        pointer: "/occurredAt",
        detail:
          "occurredAt must be an ISO 8601 date-time with a time-zone offset, such as 2026-11-02T14:30:00Z or 2026-11-02T09:30:00-05:00.",
      },
      {
        pointer: "/colour",
        detail: "colour is not a field of this request; the fields are contactId, idempotencyKey, occurredAt.",
      },
    ];
  }
  return example;
}

const exampleDetail: Partial<Record<AppErrorCode, string>> = {
  unauthenticated: "The API key is malformed, unknown or revoked.",
  insufficient_scope: "This key lacks the post_conversions scope that this endpoint needs.",
  rate_limited: "This key may call this endpoint 60 times a minute; try again in 23 s.",
  invalid_parameters: "1 parameter is not valid: baselineRate.",
  not_found: "Nothing with that identifier is visible to this key.",
  validation_failed: "2 fields are not valid: occurredAt, colour. Nothing was written.",
  malformed_request: "The body is not valid JSON (Unexpected end of JSON input).",
  unsupported_media_type: "The body is sent as text/plain; send JSON with Content-Type: application/json.",
  payload_too_large: "The body is larger than 16 KiB.",
  campaign_not_live: "The campaign is paused; entry events are accepted only while it is live. Nothing was written.",
  api_entry_not_accepted: "The campaign's frozen entry policy does not accept API entry events. Nothing was written.",
  contact_not_found: "No contact with this contactId exists in the workspace. Nothing was written.",
  contact_not_in_audience: "The contact is not in the campaign's audience. Nothing was written.",
  idempotency_key_reused:
    "This idempotencyKey was already used in this workspace for a different entry event (another campaign, contact or occurredAt).",
  conversion_conflict:
    "This occurrence (sid, kind and externalId, or at) was already reported with other values. Give each occurrence its own externalId or at.",
  internal: problemTable.internal.explanation,
};
