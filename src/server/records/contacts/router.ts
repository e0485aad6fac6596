import { z } from "zod";
import { ownerProcedure, router } from "@/server/ground/trpc";
import { ZContactCreate, ZContactFields, ZContactFilter, ZContactId, ZPage } from "./schema";
import { contactHistory, revertFieldChange } from "./history";
import { formatAddressLines, HOME_COUNTRY } from "@/server/records/addresses/address-block";
import { contactCountries, countContacts, createContact, getContact, listContacts, updateContact } from "./service";

/** Contacts for the owner's browser. */
export const contactRouter = router({
  list: ownerProcedure.input(ZContactFilter.extend(ZPage)).query(({ ctx, input }) => {
    const { workspaceId, ...filter } = input;
    return listContacts(ctx.db, { workspaceId: ctx.workspaceId, ...filter });
  }),
  count: ownerProcedure.input(ZContactFilter).query(({ ctx, input }) => {
    const { workspaceId, ...filter } = input;
    return countContacts(ctx.db, { workspaceId: ctx.workspaceId, ...filter });
  }),
  countries: ownerProcedure.query(({ ctx }) => contactCountries(ctx.db, { workspaceId: ctx.workspaceId })),
  get: ownerProcedure.input(z.object({ contactId: ZContactId })).query(async ({ ctx, input }) => {
    const contact = await getContact(ctx.db, { workspaceId: ctx.workspaceId, contactId: input.contactId });
    // The address as its country's post writes it ("Oakland, CA 94607", "10117 Berlin" / "GERMANY"), for the
    // contact's page; a home-country address, which the post writes without its country, says it too.
    const lines = formatAddressLines(contact);
    if (contact.country === HOME_COUNTRY) lines.push(HOME_COUNTRY);
    return { ...contact, addressLines: lines };
  }),
  update: ownerProcedure.input(z.object({ contactId: ZContactId, fields: ZContactFields })).mutation(({ ctx, input }) =>
    updateContact(ctx.db, {
      workspaceId: ctx.workspaceId,
      contactId: input.contactId,
      fields: input.fields,
      actor: ctx.actor,
    }),
  ),
  history: ownerProcedure
    .input(z.object({ contactId: ZContactId }))
    .query(({ ctx, input }) => contactHistory(ctx.db, { workspaceId: ctx.workspaceId, contactId: input.contactId })),
  revertField: ownerProcedure
    .input(
      z.object({
        contactId: ZContactId,
        changeId: z
          .string()
          .min(1)
          .max(64)
          .regex(/^[\w-]+$/, "Not a change id."),
      }),
    )
    .mutation(({ ctx, input }) =>
      revertFieldChange(ctx.db, { ...input, workspaceId: ctx.workspaceId, actor: ctx.actor }),
    ),
  create: ownerProcedure
    .input(z.object({ fields: ZContactCreate }))
    .mutation(({ ctx, input }) =>
      createContact(ctx.db, { workspaceId: ctx.workspaceId, fields: input.fields, actor: ctx.actor, source: "owner" }),
    ),
});
