/**
 * One error type with a closed list of codes, and one table from code to HTTP status and
 * RFC 9457 problem type. Every door (REST, tRPC, MCP, route handlers) reports failures through
 * this table; a problem type is a page on this service (/problems/<slug>) that explains it.
 */

export interface FieldError {
  /** JSON Pointer (RFC 6901) to the offending member of a request body, e.g. "/occurredAt". */
  pointer?: string;
  /** The offending query parameter, e.g. "baselineRate". */
  parameter?: string;
  detail: string;
}

interface ProblemDefinition {
  status: number;
  slug: string;
  title: string;
  /** What it means and how to fix it, for the problem's page. */
  explanation: string;
}

export const problemTable = {
  malformed_request: {
    status: 400,
    slug: "malformed-request",
    title: "The request could not be read",
    explanation:
      "The body is not valid JSON, or the request is not shaped as the endpoint expects. Send a JSON object with `Content-Type: application/json`.",
  },
  invalid_parameters: {
    status: 400,
    slug: "invalid-parameters",
    title: "Some query parameters are not valid",
    explanation:
      "One or more query parameters are missing, not numbers, or outside their bounds. The `errors` member names each parameter with its bound; the bounds and defaults are in openapi.json.",
  },
  validation_failed: {
    status: 422,
    slug: "validation-failed",
    title: "Some fields are not valid",
    explanation:
      "The request was read but one or more fields break the endpoint's rules. The `errors` member lists each field as a JSON Pointer with a sentence; fix those fields and send again. Nothing was written.",
  },
  unsupported_media_type: {
    status: 415,
    slug: "unsupported-media-type",
    title: "The body must be JSON",
    explanation: "Send the body as JSON with the header `Content-Type: application/json`.",
  },
  payload_too_large: {
    status: 413,
    slug: "payload-too-large",
    title: "The body is too large",
    explanation: "Request bodies are limited to 16 KiB. These endpoints take a handful of short fields.",
  },
  headers_too_large: {
    status: 431,
    slug: "headers-too-large",
    title: "The request's headers are too large",
    explanation:
      "The headers of the request, together, are larger than the service reads (16 KiB). Send fewer or shorter headers; a proxy in front may be adding long ones.",
  },
  unauthenticated: {
    status: 401,
    slug: "unauthenticated",
    title: "A valid credential is required",
    explanation:
      "Send a workspace API key as `Authorization: Bearer <key>`. A missing, malformed, unknown or revoked key gets this answer. Create keys in Settings -> API keys.",
  },
  insufficient_scope: {
    status: 403,
    slug: "insufficient-scope",
    title: "The credential lacks a scope",
    explanation:
      "The key is valid but does not carry the scope this endpoint needs; the `WWW-Authenticate` header names it. Create a key with that scope in Settings -> API keys.",
  },
  forbidden: {
    status: 403,
    slug: "forbidden",
    title: "Not allowed",
    explanation: "You are signed in, but your role in this workspace does not allow this action.",
  },
  not_found: {
    status: 404,
    slug: "not-found",
    title: "Not found",
    explanation:
      "Nothing with that identifier is visible to this credential. Missing objects and objects of other workspaces get the same answer, so identifiers cannot be probed.",
  },
  idempotency_key_reused: {
    status: 409,
    slug: "idempotency-key-reused",
    title: "The idempotency key was used for a different request",
    explanation:
      "An entry event with this `idempotencyKey` was already accepted in this workspace with other data (another campaign, contact or time). Use a new key for a new source event; repeat the original body exactly to retry it.",
  },
  conversion_conflict: {
    status: 409,
    slug: "conversion-conflict",
    title: "This conversion occurrence was reported with other values",
    explanation:
      "A conversion's identity is its sid, its kind and its `externalId` (or, without one, its `at`). That identity was already reported with different values. Give each occurrence its own `externalId` (or `at`); repeat the original body exactly to retry it.",
  },
  campaign_not_live: {
    status: 409,
    slug: "campaign-not-live",
    title: "The campaign is not live",
    explanation:
      "Entry events are accepted only while the campaign is live. A draft, paused or ended campaign refuses them; nothing was written. Ask the workspace owner to go live or resume.",
  },
  api_entry_not_accepted: {
    status: 409,
    slug: "api-entry-not-accepted",
    title: "The campaign does not accept API entry events",
    explanation:
      "The campaign's entry policy, frozen when it went live, does not admit contacts through the API. Use a campaign whose policy accepts API events.",
  },
  contact_not_found: {
    status: 422,
    slug: "contact-not-found",
    title: "The contact does not exist",
    explanation:
      "`contactId` must name exactly one contact that already exists in this workspace: by its id (ctc_…), its email address, or its CRM record id written hubspot:<id> or salesforce:<id>. The detail says which form matched nothing, or more than one contact (then name it by its id). An API key cannot create contacts; add them from the CRM or a CSV first.",
  },
  contact_not_in_audience: {
    status: 422,
    slug: "contact-not-in-audience",
    title: "The contact is not in the campaign's audience",
    explanation:
      "The contact exists but is not a member of the campaign's audience. Add it to the audience first; an entry event cannot widen an audience.",
  },
  rate_limited: {
    status: 429,
    slug: "rate-limited",
    title: "Too many requests",
    explanation:
      "The limit is counted per key and per endpoint. Wait the number of seconds in `Retry-After` (the `RateLimit` header says the same) and send again.",
  },
  method_not_allowed: {
    status: 405,
    slug: "method-not-allowed",
    title: "Method not allowed",
    explanation: "This path exists but not with this HTTP method; the `Allow` header lists the methods it takes.",
  },
  invalid_state: {
    status: 409,
    slug: "invalid-state",
    title: "Not possible in the current state",
    explanation:
      "The object's current state does not allow this change, for example editing a campaign that is already live.",
  },
  conflict: {
    status: 409,
    slug: "conflict",
    title: "Conflicts with the current data",
    explanation:
      "Something with the same unique value already exists, or another change to the same record happened at the same moment. Nothing was written; the detail says which. In the second case, send the request again.",
  },
  needs_confirmation: {
    status: 409,
    slug: "needs-confirmation",
    title: "A person must accept a confirmation card first",
    explanation:
      "The action waits for a confirmation card that a person with the approver, admin or owner role accepts in the browser (a plan change: the owner alone). Give the person the card's URL; nothing happens until they accept it.",
  },
  plan_does_not_mail: {
    status: 409,
    slug: "plan-does-not-mail",
    title: "The workspace is on the free audit plan",
    explanation:
      "On the free audit plan nothing is printed or mailed, so this action has no effect. The owner can choose the paid plan in Settings → Plan (an agent can ask for it with a confirmation card).",
  },
  internal: {
    status: 500,
    slug: "internal-error",
    title: "Something went wrong on our side",
    explanation:
      "The service failed unexpectedly. Nothing about the failure is shown; retrying an idempotent request is safe.",
  },
  unavailable: {
    status: 503,
    slug: "unavailable",
    title: "Temporarily unavailable",
    explanation: "The service cannot reach its database right now. Retry after a short wait.",
  },
} as const satisfies Record<string, ProblemDefinition>;

export type AppErrorCode = keyof typeof problemTable;

/**
 * The one detail every REST 404 carries, whatever was missing or foreign: a campaign, an event or
 * a sid, of no workspace or of another. Only `instance` differs, so nothing reveals existence.
 */
export const NOT_FOUND_DETAIL = "Nothing with that identifier is visible to this key.";

export class AppError extends Error {
  override name = "AppError";
  readonly code: AppErrorCode;
  readonly errors?: FieldError[];
  /** Extra members for the problem document and headers the response must carry. */
  readonly extra?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
  /** What to do next, for agents and people (e.g. which tool to call or which field to change). */
  readonly nextStep?: string;

  constructor(
    code: AppErrorCode,
    detail?: string,
    options: {
      errors?: FieldError[];
      extra?: Record<string, unknown>;
      headers?: Record<string, string>;
      nextStep?: string;
    } = {},
  ) {
    super(detail ?? problemTable[code].title);
    this.code = code;
    this.errors = options.errors;
    this.extra = options.extra;
    this.headers = options.headers;
    this.nextStep = options.nextStep;
  }

  get status(): number {
    return problemTable[this.code].status;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** The problem type URI of a code: a page on this service. */
export function problemType(baseUrl: string, code: AppErrorCode): string {
  return `${baseUrl}/problems/${problemTable[code].slug}`;
}

export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

/** The RFC 9457 document for an error; anything but an AppError becomes an opaque 500. */
export function toProblem(error: unknown, baseUrl: string, instance: string): ProblemDocument {
  const appError = isAppError(error) ? error : new AppError("internal");
  const def = problemTable[appError.code];
  return {
    type: problemType(baseUrl, appError.code),
    title: def.title,
    status: def.status,
    detail: appError.code === "internal" ? def.explanation : appError.message,
    instance,
    ...(appError.errors ? { errors: appError.errors } : {}),
    ...appError.extra,
  };
}
