import { z } from "zod";

/** The cursor every list tool takes: the nextCursor of the previous page; an unknown one is a not_found error. */
export const ZCursor = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe("The previous page's nextCursor; omit for the first page.");

/** The page size every list tool takes. */
export const ZTake = z.number().int().min(1).max(100).default(25).describe("Page size.");

/** What every list tool returns beside its items. */
export const ZNextCursor = z.string().nullable().describe("Pass as cursor for the next page; null on the last page.");
