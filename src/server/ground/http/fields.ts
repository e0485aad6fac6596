import { z } from "zod";

/**
 * Field builders for the published REST schemas: each failure reads as one sentence naming the
 * field, so a problem document's `errors` can be shown to a person as they are.
 */

/** Allowed lead of a client's clock over ours for "not in the future" (documented in openapi.json). */
export const CLOCK_SKEW_SECONDS = 300;

const kindOf = (input: unknown) => (input === null ? "null" : Array.isArray(input) ? "an array" : typeof input);

export function requiredString(field: string, max: number) {
  return z
    .string({
      error: (iss) =>
        iss.input === undefined ? `${field} is required.` : `${field} must be a string, not ${kindOf(iss.input)}.`,
    })
    .min(1, { error: `${field} must not be empty.` })
    .max(max, { error: `${field} must be at most ${max} characters.` });
}

export function optionalString(field: string, max: number) {
  return z
    .string({ error: (iss) => `${field} must be a string, not ${kindOf(iss.input)}.` })
    .min(1, { error: `${field} must not be empty when given.` })
    .max(max, { error: `${field} must be at most ${max} characters.` })
    .optional();
}

/** Earliest time-stamp any field takes (PostgreSQL and JavaScript disagree about years before 1 AD; nothing here happened before 1970). */
export const EARLIEST_TIMESTAMP = "1970-01-01T00:00:00Z";

/** Latest time-stamp any field takes (a campaign's end date, say): far off, but one PostgreSQL and JavaScript write alike. */
export const LATEST_TIMESTAMP = "9999-12-31T23:59:59Z";

/** Whether a time (milliseconds since 1970) lies in the range every field takes. */
export function isStorableTime(ms: number): boolean {
  return Number.isFinite(ms) && ms >= Date.parse(EARLIEST_TIMESTAMP) && ms <= Date.parse(LATEST_TIMESTAMP);
}

/** An RFC 3339 date-time with a time-zone offset (Z or ±hh:mm), from 1970 to now + the skew allowance. */
export function pastDateTime(field: string) {
  return z.iso
    .datetime({
      offset: true,
      error: (iss) =>
        iss.code === "invalid_type"
          ? `${field} must be a string, not ${kindOf(iss.input)}.`
          : `${field} must be an ISO 8601 date-time with a time-zone offset, such as 2026-11-02T14:30:00Z or 2026-11-02T09:30:00-05:00.`,
    })
    .refine((v) => Date.parse(v) <= Date.now() + CLOCK_SKEW_SECONDS * 1000, {
      error: `${field} must not be in the future (more than ${CLOCK_SKEW_SECONDS / 60} minutes ahead of the service's clock).`,
      // Only for a well-formed date-time: one sentence per field.
      when: (payload) => payload.issues.length === 0,
    })
    .refine((v) => Date.parse(v) >= Date.parse(EARLIEST_TIMESTAMP), {
      error: `${field} must not be before ${EARLIEST_TIMESTAMP}.`,
      when: (payload) => payload.issues.length === 0,
    });
}

/**
 * A JSON number that stays a number. trpc-to-openapi sets `coerce` on every number field of an
 * input object, JSON bodies included, which would accept "100" for 100; it does not unwrap a
 * transform pipe, so this identity transform keeps the field strict (and its OpenAPI type).
 */
export function strictNumber<T extends z.ZodNumber>(schema: T) {
  return schema.transform((value) => value);
}

/** Sentence for a member (or query parameter) the endpoint does not take. */
export function unknownFieldMessage(field: string, known: string[]): string {
  return `${field} is not a field of this request; the fields are ${known.join(", ")}.`;
}
