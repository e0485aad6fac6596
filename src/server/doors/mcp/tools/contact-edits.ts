import { z } from "zod";
import { ZContactFields, type TContactFields } from "@/server/records/contacts/schema";
import { resolveContactRef } from "@/server/records/contacts/contact-refs";
import { ZContactRefArg } from "./contact-identity";
import { getContact, updateContact } from "@/server/records/contacts/service";
import { eraseContact } from "@/server/programme/erasure/erase-contact";
import { contactMailability } from "@/server/programme/mailability/fixes";
import { ZContactMailability } from "@/server/programme/mailability/schema";
import { defineTool } from "../tool";
import { ZContactOut } from "./people-schemas";

const FIELD_NAMES = Object.keys(ZContactFields.shape) as (keyof TContactFields)[];
const ADDRESS_FIELDS = ["addressLine1", "addressLine2", "city", "region", "postalCode", "country"];

/**
 * Each contact field, optional and without its default: only the fields given change. Built from
 * the shape at run time, so its type is given here (each field of TContactFields, optional).
 */
const ZContactChanges = z
  .object(
    Object.fromEntries(
      Object.entries(ZContactFields.shape).map(([k, v]) => [
        k,
        (v instanceof z.ZodDefault ? (v.unwrap() as z.ZodType) : v).optional(),
      ]),
    ),
  )
  .describe(
    "Only the fields to change (country: name or ISO code); null clears one. customFields replaces the whole map.",
  ) as unknown as z.ZodObject<{
  [K in keyof TContactFields]: z.ZodOptional<z.ZodType<TContactFields[K]>>;
}>;

export const contactEditTools = [
  defineTool({
    name: "contacts_update",
    title: "Edit a contact",
    description:
      "Changes the fields given of one contact; the answer carries its mailability judged again. An email or CRM id another contact has is a conflict. Printed pieces keep their address.",
    scope: "contacts:write",
    kind: "write",
    idempotent: true,
    destructive: true,
    input: z.object({ contactId: ZContactRefArg.describe("As contacts_get takes it."), fields: ZContactChanges }),
    result: ZContactOut.extend({ mailability: ZContactMailability }),
    run: async (ctx, a) => {
      const contactId = await resolveContactRef(ctx.db, { workspaceId: ctx.workspaceId, ref: a.contactId });
      const current = await getContact(ctx.db, { workspaceId: ctx.workspaceId, contactId });
      const given = Object.keys(a.fields).filter((k) => (a.fields as Record<string, unknown>)[k] !== undefined);
      const merged = Object.fromEntries(
        FIELD_NAMES.map((k) => [
          k,
          given.includes(k)
            ? (a.fields as Record<string, unknown>)[k]
            : ((current as Record<string, unknown>)[k] ?? null),
        ]),
      ) as TContactFields;
      merged.firstName ??= "";
      merged.lastName ??= "";
      merged.customFields ??= {};
      const before = JSON.stringify(FIELD_NAMES.map((k) => (current as Record<string, unknown>)[k] ?? null));
      await updateContact(ctx.db, {
        workspaceId: ctx.workspaceId,
        contactId,
        fields: merged,
        actor: ctx.actor,
      });
      const after = await getContact(ctx.db, { workspaceId: ctx.workspaceId, contactId });
      const changed = JSON.stringify(FIELD_NAMES.map((k) => (after as Record<string, unknown>)[k] ?? null)) !== before;
      const address = given.some((k) => ADDRESS_FIELDS.includes(k));
      return {
        requested: `Edit ${given.join(", ") || "nothing"} of contact ${a.contactId}.`,
        changed: changed
          ? [
              `Updated ${given.join(", ")} of contact ${contactId}.${address ? " Its address is unverified again and its mailability was judged again." : ""}`,
            ]
          : [],
        result: {
          ...after,
          mailability: await contactMailability(ctx.db, { workspaceId: ctx.workspaceId, contactId }),
        },
      };
    },
    errorHints: { not_found: "Find the contact's id with contacts_list." },
  }),
  defineTool({
    name: "contacts_delete",
    title: "Delete a contact",
    description:
      'Deletes a contact and its history; unprinted pieces are cancelled, pending entry events end; printed ones stay as "Deleted contact", not their name or address. Refused while a piece is at the printer.',
    scope: "contacts:write",
    kind: "write",
    idempotent: true,
    destructive: true,
    input: z.object({
      contactId: ZContactRefArg.describe("As contacts_get takes it."),
      suppress: z.boolean().optional().describe("true: also suppress their email and address (default false)."),
    }),
    result: z.object({
      contactId: z.string(),
      deleted: z.literal(true),
      audienceMemberships: z.number().int(),
      piecesKept: z.number().int().describe("Printed or mailed pieces kept, without the person."),
      piecesCancelled: z.number().int().describe("Unprinted pieces cancelled (their budget released)."),
      eventsEnded: z.number().int(),
      suppressed: z.array(z.enum(["email", "address"])),
    }),
    run: async (ctx, a) => {
      const r = await eraseContact(ctx.db, {
        workspaceId: ctx.workspaceId,
        contactId: await resolveContactRef(ctx.db, { workspaceId: ctx.workspaceId, ref: a.contactId }),
        suppress: a.suppress ?? false,
        actor: ctx.actor,
      });
      return {
        requested: `Delete contact ${a.contactId}${a.suppress ? " and suppress their email and address" : ""}.`,
        changed: [
          `Deleted contact ${r.contactId} (${r.audienceMemberships} audience memberships); kept ${r.piecesKept} printed pieces without the person, cancelled ${r.piecesCancelled} unprinted, ended ${r.eventsEnded} entry events.`,
          ...(r.suppressed.length ? [`Suppressed their ${r.suppressed.join(" and ")}.`] : []),
        ],
        result: r,
      };
    },
    errorHints: {
      not_found: "Find the contact's id with contacts_list; a deleted contact stays not_found.",
      invalid_state: "Retry once the named pieces are mailed.",
    },
  }),
];
