import { z } from "zod";

/** The cursor every list tool takes: the nextCursor of the previous page; an unknown one is a not_found error. */
export const ZCursor = z.string().min(1).max(200).optional().describe("nextCursor of the previous page; omit for the first page. An unknown cursor is a not_found error.");

/** The page size every list tool takes. */
export const ZTake = z.number().int().min(1).max(100).default(25).describe("Page size, 1 to 100.");

/** What every list tool returns beside its items. */
export const ZNextCursor = z.string().nullable().describe("Pass as cursor for the next page; null on the last page.");
