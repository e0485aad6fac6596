import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";

const contactSelect = {
  id: true,
  firstName: true,
  lastName: true,
  title: true,
  email: true,
  city: true,
  region: true,
  country: true,
  addressStatus: true,
  crmSource: true,
  crmExternalId: true,
  account: { select: { id: true, name: true, domain: true } },
} satisfies Prisma.ContactSelect;

/**
 * One page of the workspace's contacts (optionally of one audience, or matching a name, email or
 * company), ordered by id; `nextCursor` is null on the last page.
 */
export async function listContacts(db: Db, p: { workspaceId: string; audienceId?: string; query?: string; cursor?: string | null; take: number }) {
  const q = p.query?.trim();
  const where: Prisma.ContactWhereInput = {
    workspaceId: p.workspaceId,
    ...(p.audienceId ? { audienceMembers: { some: { audienceId: p.audienceId, audience: { workspaceId: p.workspaceId } } } } : {}),
    ...(q
      ? {
          OR: [
            { firstName: { contains: q, mode: "insensitive" } },
            { lastName: { contains: q, mode: "insensitive" } },
            { email: { contains: q.toLowerCase() } },
            { account: { name: { contains: q, mode: "insensitive" } } },
          ],
        }
      : {}),
    ...(p.cursor ? { id: { gt: p.cursor } } : {}),
  };
  const rows = await db.contact.findMany({ where, orderBy: { id: "asc" }, take: p.take + 1, select: contactSelect });
  const page = rows.slice(0, p.take);
  return { contacts: page, nextCursor: rows.length > p.take ? page[page.length - 1].id : null };
}

/** One contact with its postal address and the audiences it belongs to. */
export async function getContact(db: Db, p: { workspaceId: string; contactId: string }) {
  const contact = await db.contact.findFirst({
    where: { id: p.contactId, workspaceId: p.workspaceId },
    select: {
      ...contactSelect,
      addressLine1: true,
      addressLine2: true,
      postalCode: true,
      undeliverableReason: true,
      audienceMembers: { select: { audience: { select: { id: true, name: true } } } },
    },
  });
  if (!contact) throw new AppError("not_found", "No such contact.");
  const { audienceMembers, ...rest } = contact;
  return { ...rest, audiences: audienceMembers.map((m) => m.audience) };
}
