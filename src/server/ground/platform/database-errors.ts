import { AppError } from "@/server/ground/errors";

/**
 * Database failures that a request caused, as the AppError a client can act on. Inputs are bounded
 * and validated at every door, so these are a safety net: a value PostgreSQL still refuses is the
 * client's (400, never a 500), two changes of one row at the same moment are a 409 to retry, and a
 * transaction the service was too busy to finish in time is a 503 to retry.
 * Everything else stays an internal error.
 */

/** The SQLSTATE of a database error, through Prisma's driver adapters or straight from `pg`/PGlite. */
export function sqlState(error: unknown): string | null {
  const e = error as {
    code?: unknown;
    meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; code?: unknown } } };
    cause?: unknown;
  } | null;
  if (!e || typeof e !== "object") return null;
  const cause = e.meta?.driverAdapterError?.cause;
  const adapted = cause?.originalCode ?? cause?.code;
  if (typeof adapted === "string" && /^[0-9A-Z]{5}$/.test(adapted)) return adapted;
  if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code) && !e.code.startsWith("P")) return e.code;
  return null;
}

const prismaCode = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^P\d{4}$/.test(code) ? code : null;
};

export const BUSY_MESSAGE =
  "The service was too busy to finish this in time, so nothing was written. Try again in a few seconds.";
/** Seconds a client is asked to wait after a transaction that timed out. */
export const BUSY_RETRY_AFTER_SECONDS = 5;

export const CONCURRENT_CHANGE_MESSAGE =
  "Another change to the same record happened at the same moment, so nothing was written. Try again.";
export const DUPLICATE_MESSAGE =
  "A record with the same name or key already exists (or was created at the same moment by another request), so nothing was written. Choose another name, or use the existing one.";
export const VANISHED_REFERENCE_MESSAGE =
  "Something this request refers to (a contact, a campaign, an audience) was deleted at the same moment, so nothing was written.";
export const UNSTORABLE_VALUE_MESSAGE =
  "A value in the request cannot be stored: it is too long, out of range, or holds a character (such as NUL) that text cannot contain. Nothing was written.";

/** Whether a database failure is a unique-constraint violation (PostgreSQL 23505, Prisma P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === "23505" || prismaCode(error) === "P2002";
}

/** A deadlock or serialization failure: the transaction was rolled back and may simply run again. */
export function isTransientConflict(error: unknown): boolean {
  const state = sqlState(error);
  return state === "40P01" || state === "40001" || prismaCode(error) === "P2034";
}

/**
 * Runs a transaction again (up to `tries` times in all, after a short random pause) when PostgreSQL
 * chose it as a deadlock's victim or could not serialize it; any other failure goes to the caller.
 */
export async function retryTransient<T>(run: () => Promise<T>, tries = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= tries || !isTransientConflict(error)) throw error;
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 80 * attempt));
    }
  }
}

/** The AppError for a database failure the request caused, or null for a failure of the service. */
export function appErrorFromDatabase(error: unknown): AppError | null {
  const state = sqlState(error);
  const prisma = prismaCode(error);
  // Serialization failure, deadlock, or Prisma's "write conflict or deadlock".
  if (prisma === "P2034" || state === "40001" || state === "40P01")
    return new AppError("conflict", CONCURRENT_CHANGE_MESSAGE);
  // A transaction that could not start in time, or outlived its timeout and was rolled back (P2028),
  // or a statement cancelled by a lock or statement timeout (55P03, 57014): the service was busy,
  // the request wrote nothing, and it may be sent again (503 with Retry-After, never a 500).
  if (prisma === "P2028" || state === "55P03" || state === "57014") {
    return new AppError("unavailable", BUSY_MESSAGE, { headers: { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) } });
  }
  // A unique constraint: two requests created the same thing at once (each checked first and found
  // nothing). The one that lost gets the 409 a sequential duplicate gets; services that can name
  // the existing record say so themselves (isUniqueViolation).
  if (isUniqueViolation(error)) return new AppError("conflict", DUPLICATE_MESSAGE);
  // A foreign key: the record a write refers to was checked, then deleted by another request before
  // the write committed (a contact deleted while an entry event for them was accepted).
  if (state === "23503" || prisma === "P2003") return new AppError("not_found", VANISHED_REFERENCE_MESSAGE);
  // Class 22 (data exception: NUL, bad encoding, out-of-range dates and numbers, too long) and
  // 54000 (an index entry over PostgreSQL's size limit); Prisma's own value errors likewise.
  if (
    (state && (state.startsWith("22") || state === "54000")) ||
    prisma === "P2000" ||
    prisma === "P2007" ||
    prisma === "P2020" ||
    prisma === "P2033"
  ) {
    return new AppError("malformed_request", UNSTORABLE_VALUE_MESSAGE);
  }
  return null;
}
