import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";

export interface TPersonValues {
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  addressLine1: string | null;
}

/**
 * Whether a file row (`cells`, a text[] expression) is the person's: a cell is their email, phone
 * or full name, or the row has both their first and last name, or their street line with either
 * name. Cells are compared trimmed and case-blind, as the import read them.
 */
function rowIsPerson(cells: Prisma.Sql, p: TPersonValues): Prisma.Sql {
  const norm = (v: string | null) => (v ?? "").trim().toLowerCase();
  const [first, last, street] = [norm(p.firstName), norm(p.lastName), norm(p.addressLine1)];
  const strong = [norm(p.email), norm(p.phone), first && last ? `${first} ${last}` : ""].filter(Boolean);
  const has = (v: string) => Prisma.sql`${v} = ANY (SELECT lower(btrim(c)) FROM unnest(${cells}) AS c)`;
  const tests: Prisma.Sql[] = [];
  if (strong.length)
    tests.push(
      Prisma.sql`EXISTS (SELECT 1 FROM unnest(${cells}) AS c WHERE lower(btrim(c)) = ANY (${strong}::text[]))`,
    );
  if (first && last) tests.push(Prisma.sql`(${has(first)} AND ${has(last)})`);
  if (street && (first || last))
    tests.push(
      Prisma.sql`(${has(street)} AND (${first ? has(first) : Prisma.sql`false`} OR ${last ? has(last) : Prisma.sql`false`}))`,
    );
  return tests.length ? Prisma.join(tests, " OR ") : Prisma.sql`false`;
}

/**
 * The person's rows in the workspace's import files as they were kept for display: the first rows
 * shown beside the mapping (ContactImport.sample) lose theirs, and the refused or warned rows of
 * the downloadable list (ContactImportIssue) that are theirs are deleted. The imports' counts stay.
 */
export async function eraseImportCopies(tx: Db, workspaceId: string, person: TPersonValues): Promise<void> {
  const sampleRow = rowIsPerson(Prisma.sql`ARRAY(SELECT jsonb_array_elements_text(e.r))`, person);
  await tx.$executeRaw`
    UPDATE "ContactImport" ci
       SET sample = COALESCE(
             (SELECT jsonb_agg(e.r ORDER BY e.n) FROM jsonb_array_elements(ci.sample) WITH ORDINALITY AS e(r, n)
               WHERE jsonb_typeof(e.r) <> 'array' OR NOT (${sampleRow})),
             '[]'::jsonb)
     WHERE ci."workspaceId" = ${workspaceId} AND jsonb_typeof(ci.sample) = 'array'`;
  const issueRow = rowIsPerson(Prisma.sql`i.values`, person);
  await tx.$executeRaw`
    DELETE FROM "ContactImportIssue" i USING "ContactImport" ci
     WHERE i."importId" = ci.id AND ci."workspaceId" = ${workspaceId} AND (${issueRow})`;
}
