import { Prisma } from "@/generated/prisma/client";
import { AppError } from "@/server/ground/errors";
import { isIdShaped } from "@/server/ground/platform/stored-text";

/** What the contacts list, its export and "an audience from this filter" select by. */
export interface TContactFilter {
  /** Words of a name, an email or a company: each word matches the start of a word. */
  search?: string | null;
  audienceId?: string | null;
  accountId?: string | null;
  /** ISO 3166-1 alpha-2. */
  country?: string | null;
  /** true: only contacts a suppression stops; false: only the others. */
  suppressed?: boolean | null;
}

/**
 * The words of a search as a prefix query on the search columns. Both sides are split by the same
 * rule in the database (lower case, runs of letters and digits), so "O'Brien", "jane.doe@acme" or
 * "Müller-Lüdenscheidt" find what they should; each word matches the start of a word. The columns
 * are built with array_to_tsvector, not to_tsvector: the text search parser cost several times the
 * rest of an import's write. Null (no match) when the search has no words.
 */
export const searchQuery = (search: string) => Prisma.sql`(
  SELECT string_agg('''' || w || ''':*', ' & ')::tsquery
    FROM unnest(regexp_split_to_array(lower(${search}), '[^[:alnum:]]+')) AS w WHERE w <> '')`;

/** Whether a suppression stops contact `c` (its id, email, email domain, account, account domain or address). */
export const suppressedSql = (workspaceId: string) => Prisma.sql`COALESCE((
     c.id IN (SELECT s.value FROM "Suppression" s WHERE s."workspaceId" = ${workspaceId} AND s.kind = 'contact')
  OR c.email IN (SELECT s.value FROM "Suppression" s WHERE s."workspaceId" = ${workspaceId} AND s.kind = 'email')
  OR split_part(c.email, '@', 2) IN (SELECT s.value FROM "Suppression" s WHERE s."workspaceId" = ${workspaceId} AND s.kind = 'domain')
  OR c."accountId" IN (SELECT s.value FROM "Suppression" s WHERE s."workspaceId" = ${workspaceId} AND s.kind = 'account')
  OR c."accountId" IN (SELECT a.id FROM "Account" a JOIN "Suppression" s ON s."workspaceId" = ${workspaceId} AND s.kind = 'domain' AND s.value = a.domain WHERE a."workspaceId" = ${workspaceId})
  OR c."addressKey" IN (SELECT s.value FROM "Suppression" s WHERE s."workspaceId" = ${workspaceId} AND s.kind = 'address')), false)`;

/** The WHERE clause (on `"Contact" c`) of a filter, always scoped to the workspace. */
export function contactFilterSql(workspaceId: string, f: TContactFilter): Prisma.Sql {
  const parts: Prisma.Sql[] = [Prisma.sql`c."workspaceId" = ${workspaceId}`];
  const search = f.search?.trim();
  if (search) {
    parts.push(Prisma.sql`(c.search @@ ${searchQuery(search)}
      OR c."accountId" IN (SELECT a.id FROM "Account" a WHERE a."workspaceId" = ${workspaceId} AND a.search @@ ${searchQuery(search)}))`);
  }
  if (f.audienceId)
    parts.push(
      Prisma.sql`EXISTS (SELECT 1 FROM "AudienceMember" m WHERE m."audienceId" = ${f.audienceId} AND m."contactId" = c.id AND m."workspaceId" = ${workspaceId})`,
    );
  if (f.accountId) parts.push(Prisma.sql`c."accountId" = ${f.accountId}`);
  if (f.country) parts.push(Prisma.sql`c.country = ${f.country.toUpperCase()}`);
  if (f.suppressed === true) parts.push(suppressedSql(workspaceId));
  if (f.suppressed === false) parts.push(Prisma.sql`NOT ${suppressedSql(workspaceId)}`);
  return Prisma.join(parts, " AND ");
}

/** A page cursor: the last row's creation time and id (newest first), opaque to clients. */
export function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(`${createdAt.toISOString()}|${id}`).toString("base64url");
}

export function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = Buffer.from(cursor, "base64url").toString().split("|");
  if (!id || !isIdShaped(id) || Number.isNaN(Date.parse(createdAt))) {
    throw new AppError("not_found", "The cursor is not one this list gave; start again without it.");
  }
  return { createdAt: new Date(createdAt).toISOString(), id };
}
