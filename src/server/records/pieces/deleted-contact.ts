/**
 * What a piece, an entry event or a response shows once its contact was deleted (contacts_delete):
 * the record stays, the person does not. One wording everywhere ("Deleted contact").
 */
export const DELETED_CONTACT = "Deleted contact";

/** The recipient's name, or "Deleted contact" when the contact is gone. */
export function personName(c: { firstName: string; lastName: string } | null | undefined): string {
  return c ? `${c.firstName} ${c.lastName}`.trim() : DELETED_CONTACT;
}

/** The recipient snapshot a piece keeps after its contact was deleted (replaces name and address). */
export const REDACTED_RECIPIENT = { name: DELETED_CONTACT, lines: [] as string[], redacted: true };
