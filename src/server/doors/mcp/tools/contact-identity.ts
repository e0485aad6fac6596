import { z } from "zod";
import type { Db } from "@/server/ground/db";
import { CONTACT_REF_DESCRIPTION, contactIdentities } from "@/server/records/contacts/contact-refs";

/** A contact argument: our id, the contact's email, or its CRM record id (contacts/contact-refs.ts). */
export const ZContactRefArg = z.string().min(1).max(200).describe(CONTACT_REF_DESCRIPTION);

/** What a result says of a contact beside our id: how the caller's own systems know it. */
export const ZContactIdentityFields = {
  contactEmail: z.string().nullable(),
  contactCrmIds: z.array(z.string()),
};

/** The identity fields of each contact id given (null ids, deleted contacts: no email, no CRM ids). */
export async function identityFieldsOf(db: Db, workspaceId: string, contactIds: (string | null)[]) {
  const found = await contactIdentities(db, {
    workspaceId,
    contactIds: contactIds.filter((id): id is string => id !== null),
  });
  return (contactId: string | null) => {
    const identity = contactId ? found.get(contactId) : undefined;
    return { contactEmail: identity?.email ?? null, contactCrmIds: identity?.crmIds ?? [] };
  };
}
