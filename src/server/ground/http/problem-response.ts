import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { AppError, type FieldError, isAppError, toProblem } from "@/server/ground/errors";
import { baseUrl } from "@/server/ground/platform/base-url";
import { appErrorFromDatabase } from "@/server/ground/platform/database-errors";
import { unknownFieldMessage } from "./fields";

/** RFC 6901: "~" -> "~0", "/" -> "~1". */
const pointerOf = (path: PropertyKey[]) =>
  `/${path.map((p) => String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;

/** Each zod issue as a field error: unknown members one by one, with the fields the request takes. */
export function fieldErrors(error: ZodError, knownFields: string[], where: "body" | "query" = "body"): FieldError[] {
  const at = (path: PropertyKey[]) =>
    where === "body" ? { pointer: pointerOf(path) } : { parameter: path.map(String).join(".") };
  return error.issues.flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({ ...at([...issue.path, key]), detail: unknownFieldMessage(key, knownFields) }))
      : [{ ...at(issue.path), detail: issue.message }],
  );
}

/**
 * Any failure of a published procedure as an AppError: invalid JSON bodies are 422
 * validation_failed, invalid query parameters 400 invalid_parameters; unknown failures become an
 * opaque internal error.
 */
export function toAppError(error: unknown, knownFields: string[], where: "body" | "query" = "body"): AppError {
  if (isAppError(error)) return error;
  const cause = error instanceof TRPCError ? error.cause : undefined;
  if (isAppError(cause)) return cause;
  if (cause instanceof ZodError) {
    const errors = fieldErrors(cause, knownFields, where);
    const names = [...new Set(errors.map((e) => e.parameter ?? e.pointer!.slice(1)))];
    if (where === "query") {
      return new AppError(
        "invalid_parameters",
        `${names.length === 1 ? "1 parameter is" : `${names.length} parameters are`} not valid: ${names.join(", ")}.`,
        { errors },
      );
    }
    return new AppError(
      "validation_failed",
      `${names.length === 1 ? "1 field is" : `${names.length} fields are`} not valid: ${names.join(", ")}. Nothing was written.`,
      { errors },
    );
  }
  return appErrorFromDatabase(cause ?? error) ?? new AppError("internal");
}

/** An RFC 9457 problem document response. */
export function problemResponse(error: AppError, instance: string, headers: Record<string, string> = {}): Response {
  const body = toProblem(error, baseUrl(), instance);
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: { "Content-Type": "application/problem+json", "Cache-Control": "no-store", ...error.headers, ...headers },
  });
}
