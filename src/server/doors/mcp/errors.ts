import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { AppError, AppErrorCode, FieldError } from "@/server/ground/errors";

/**
 * The closed list of error codes a tool answers with: stable strings an agent can branch on,
 * each with one sentence and the next step (the tool to call, or the field to change).
 */
export const TOOL_ERROR_CODES = [
  "not_found",
  "invalid_argument",
  "conflict",
  "invalid_state",
  "needs_confirmation",
  "plan_does_not_mail",
  "insufficient_scope",
  "rate_limited",
  "unknown_tool",
  "internal",
] as const;
export type TToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

export const toolErrorDescriptions: Record<TToolErrorCode, string> = {
  not_found:
    "No object with that id is visible in this workspace (missing and other workspaces' ids look the same). Find the id with the matching *_list tool.",
  invalid_argument:
    "An argument breaks the tool's rules; `fields` names each one. Fix them and call again: nothing was written.",
  conflict:
    "The request clashes with what exists (the same key or identity used for different data). Nothing was written.",
  invalid_state:
    "The object's state does not allow this now (for example editing a live campaign). The message says what state it is in.",
  needs_confirmation:
    "A person must first accept a confirmation card in the browser; the message gives the card. Tell them, and poll confirmations_get.",
  plan_does_not_mail:
    "The workspace is on the free audit plan, so nothing is printed or mailed. Ask for the paid plan with plans_request_change.",
  insufficient_scope: "The connection lacks the scope the tool needs; the owner can reconnect the agent with it.",
  rate_limited: "Too many calls; wait and try again.",
  unknown_tool: "No such tool, or not with this connection's scopes: list the tools again.",
  internal: "The service failed unexpectedly; nothing about the failure is shown. Retrying an idempotent tool is safe.",
};

const fromAppError: Record<AppErrorCode, TToolErrorCode> = {
  malformed_request: "invalid_argument",
  invalid_parameters: "invalid_argument",
  validation_failed: "invalid_argument",
  unsupported_media_type: "invalid_argument",
  payload_too_large: "invalid_argument",
  headers_too_large: "invalid_argument",
  unauthenticated: "insufficient_scope",
  insufficient_scope: "insufficient_scope",
  forbidden: "insufficient_scope",
  not_found: "not_found",
  idempotency_key_reused: "conflict",
  conversion_conflict: "conflict",
  campaign_not_live: "invalid_state",
  api_entry_not_accepted: "invalid_state",
  contact_not_found: "not_found",
  contact_not_in_audience: "invalid_argument",
  rate_limited: "rate_limited",
  method_not_allowed: "unknown_tool",
  invalid_state: "invalid_state",
  conflict: "conflict",
  needs_confirmation: "needs_confirmation",
  plan_does_not_mail: "plan_does_not_mail",
  internal: "internal",
  unavailable: "internal",
};

export interface ToolErrorBody {
  code: TToolErrorCode;
  message: string;
  nextStep: string;
  fields?: FieldError[];
}

/** The `_meta` key of a tool error's machine-readable body (errors carry no structuredContent: it would have to match the tool's output schema). */
export const TOOL_ERROR_META_KEY = "io.direct-mail-programme/error";

export function toolError(body: ToolErrorBody): CallToolResult {
  const fields = body.fields?.length
    ? ` Fields: ${body.fields.map((f) => `${f.pointer ?? f.parameter}: ${f.detail}`).join("; ")}.`
    : "";
  return {
    isError: true,
    content: [{ type: "text", text: `Error ${body.code}: ${body.message}${fields} Next step: ${body.nextStep}` }],
    _meta: { [TOOL_ERROR_META_KEY]: body },
  };
}

/** The tool error code of a service's AppError. */
export const toolCodeOf = (error: AppError): TToolErrorCode => fromAppError[error.code];

/** A service's AppError as a tool error, with the service's next step or the tool's default for the code. */
export function toolErrorFromApp(error: AppError, hints: Partial<Record<TToolErrorCode, string>> = {}): CallToolResult {
  const code = fromAppError[error.code];
  return toolError({
    code,
    message: error.code === "internal" ? toolErrorDescriptions.internal : error.message,
    nextStep: error.nextStep ?? hints[code] ?? nextStepOfApp[error.code] ?? defaultNextStep[code],
    fields: error.errors,
  });
}

/**
 * Next steps for service errors the tool code's default does not fit: a generic conflict is a
 * clash with what exists (a name already taken), not a reused key.
 */
const nextStepOfApp: Partial<Record<AppErrorCode, string>> = {
  conflict:
    "Read what already exists (the message names it; its *_get tool shows it), then use it or choose another name or value.",
};

export const defaultNextStep: Record<TToolErrorCode, string> = {
  not_found: "Check the id: find it with the matching *_list tool.",
  invalid_argument: "Fix the arguments named above and call the tool again.",
  conflict: "Use a new key for a new request, or repeat the original arguments exactly to retry.",
  invalid_state: "Read the object again (its *_get tool) and act on its current state.",
  needs_confirmation: "Give the person the card's URL; poll confirmations_get until they decide.",
  plan_does_not_mail:
    "Ask the owner for the paid plan with plans_request_change, or tell the person that nothing is mailed on the free audit plan.",
  insufficient_scope: "Ask the owner to reconnect this agent with the scope named above.",
  rate_limited: "Wait a minute and call again.",
  unknown_tool: "Call tools/list and use one of the tools listed.",
  internal: "Try again in a moment; if it keeps failing, tell the person.",
};
