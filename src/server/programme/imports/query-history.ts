import { clearLogs } from "@prisma/debug";

/**
 * Prisma's driver adapters log every query with its arguments through @prisma/debug, which keeps
 * the arguments of the last 100 log calls for its crash reports, even with logging off. An
 * import's set-based statements carry megabytes of rows each, so that history would hold hundreds
 * of megabytes; the import forgets it after each batch. (The same package instance as the
 * PostgreSQL adapter's, since both stay outside the server bundle; statements are also kept to
 * 1,000 rows each, which bounds the history wherever it is not cleared.)
 */
export function forgetQueryHistory(): void {
  clearLogs();
}
