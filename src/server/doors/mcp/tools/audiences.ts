import { z } from "zod";
import { ZAudienceName, ZAudienceSummary, ZContactIds } from "@/server/records/audiences/schema";
import {
  addAudienceContacts,
  createAudience,
  getAudience,
  listAudiencePage,
  removeAudienceContacts,
} from "@/server/records/audiences/service";
import { ZAudienceId, ZContactId } from "@/server/records/contacts/schema";
import { ZSuppressionEntry, ZSuppressionReason } from "@/server/records/contacts/suppressions";
import { addSuppressions, listSuppressions } from "@/server/records/contacts/suppressions-service";
import { ZCursor, ZTake } from "./paging";
import { defineTool } from "../tool";
import { ZAudienceOut, ZSuppressionOut } from "./people-schemas";

const ZAudienceIdArg = ZAudienceId.describe("The audience's id (aud_…); audiences_list gives them.");

export const audienceTools = [
  defineTool({
    name: "audiences_list",
    title: "List audiences",
    description: "Audiences (static contact lists a campaign mails), newest first, with size and accounts spanned.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({
      search: z.string().max(100).optional().describe("Part of the audience's name."),
      cursor: ZCursor,
      take: ZTake,
    }),
    result: z.object({ audiences: z.array(ZAudienceSummary), nextCursor: z.string().nullable() }),
    run: async (ctx, a) => ({
      requested: "The list of audiences.",
      changed: [],
      result: await listAudiencePage(ctx.db, { workspaceId: ctx.workspaceId, ...a }),
    }),
  }),
  defineTool({
    name: "audiences_get",
    title: "Read an audience",
    description:
      "One audience: size, accounts, contacts per country, campaigns mailing it (contacts: contacts_list { audienceId }).",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({ audienceId: ZAudienceIdArg }),
    result: ZAudienceOut,
    run: async (ctx, a) => ({
      requested: `Audience ${a.audienceId}.`,
      changed: [],
      result: await getAudience(ctx.db, { workspaceId: ctx.workspaceId, audienceId: a.audienceId }),
    }),
  }),
  defineTool({
    name: "audiences_create",
    title: "Create an audience",
    description:
      "Makes a static audience with a new name, empty or with contacts (at most 1,000 ids; more with audiences_add_contacts). An unknown contact id writes nothing.",
    scope: "contacts:write",
    kind: "write",
    idempotent: false,
    input: z.object({
      name: ZAudienceName.describe("A name no other audience of the workspace has."),
      contactIds: z.array(ZContactId).max(1000).optional().describe("Contacts to add (ctc_…), at most 1000."),
    }),
    result: ZAudienceSummary.pick({ id: true, name: true, size: true, accounts: true }),
    run: async (ctx, a) => {
      const audience = await createAudience(ctx.db, {
        workspaceId: ctx.workspaceId,
        name: a.name,
        contactIds: a.contactIds,
        actor: ctx.actor,
      });
      return {
        requested: `Create the audience “${a.name}”${a.contactIds?.length ? ` with ${a.contactIds.length} contacts` : ""}.`,
        changed: [`Audience ${audience.id} “${audience.name}” created with ${audience.size} contacts.`],
        result: { id: audience.id, name: audience.name, size: audience.size, accounts: audience.accounts },
      };
    },
  }),
  defineTool({
    name: "audiences_add_contacts",
    title: "Add contacts to an audience",
    description: "Adds contacts (at most 1,000 ids a call) to an audience. An unknown contact id writes nothing.",
    scope: "contacts:write",
    kind: "write",
    idempotent: true,
    input: z.object({ audienceId: ZAudienceIdArg, contactIds: ZContactIds }),
    result: z.object({
      audienceId: z.string(),
      added: z.number().int(),
      alreadyMembers: z.number().int(),
      size: z.number().int(),
      accounts: z.number().int(),
    }),
    run: async (ctx, a) => {
      const r = await addAudienceContacts(ctx.db, {
        workspaceId: ctx.workspaceId,
        audienceId: a.audienceId,
        contactIds: a.contactIds,
        actor: ctx.actor,
      });
      return {
        requested: `Add ${a.contactIds.length} contacts to audience ${a.audienceId}.`,
        changed: r.added ? [`${r.added} contacts added to audience ${a.audienceId}.`] : [],
        result: {
          audienceId: a.audienceId,
          added: r.added,
          alreadyMembers: r.alreadyMembers,
          size: r.audience.size,
          accounts: r.audience.accounts,
        },
      };
    },
  }),
  defineTool({
    name: "audiences_remove_contacts",
    title: "Remove contacts from an audience",
    description:
      "Removes contacts (at most 1,000 ids a call) from an audience; they stay in the workspace. An unknown contact id writes nothing.",
    scope: "contacts:write",
    kind: "write",
    idempotent: true,
    destructive: true,
    input: z.object({ audienceId: ZAudienceIdArg, contactIds: ZContactIds }),
    result: z.object({
      audienceId: z.string(),
      removed: z.number().int(),
      notMembers: z.number().int(),
      size: z.number().int(),
      accounts: z.number().int(),
    }),
    run: async (ctx, a) => {
      const r = await removeAudienceContacts(ctx.db, {
        workspaceId: ctx.workspaceId,
        audienceId: a.audienceId,
        contactIds: a.contactIds,
        actor: ctx.actor,
      });
      return {
        requested: `Remove ${a.contactIds.length} contacts from audience ${a.audienceId}.`,
        changed: r.removed ? [`${r.removed} contacts removed from audience ${a.audienceId}.`] : [],
        result: {
          audienceId: a.audienceId,
          removed: r.removed,
          notMembers: r.notMembers,
          size: r.audience.size,
          accounts: r.audience.accounts,
        },
      };
    },
  }),
  defineTool({
    name: "suppressions_add",
    title: "Add to the suppression list",
    description:
      "Adds entries never to mail, each one of email, address, domain or accountId, with a reason. At most 1,000; one bad entry writes nothing; one already listed keeps its reason.",
    scope: "contacts:write",
    kind: "write",
    idempotent: true,
    input: z.object({
      entries: z
        .array(ZSuppressionEntry.safeExtend({ contactId: z.never().optional() }))
        .min(1)
        .max(1000)
        .describe("The entries, as above."),
    }),
    result: z.object({
      added: z.number().int(),
      alreadySuppressed: z.number().int(),
      suppressions: z.array(ZSuppressionOut),
    }),
    run: async (ctx, a) => {
      const r = await addSuppressions(ctx.db, {
        workspaceId: ctx.workspaceId,
        entries: a.entries,
        source: "agent",
        actor: ctx.actor,
      });
      return {
        requested: `Suppress ${a.entries.length} entries.`,
        changed: r.added ? [`${r.added} entries added to the suppression list.`] : [],
        result: r,
      };
    },
  }),
  defineTool({
    name: "suppressions_list",
    title: "List suppressions",
    description:
      "The suppression list (never mailed), newest first: kind, what it names, reason, source, who added it.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({
      kind: z
        .enum(["contact", "email", "address", "account", "domain"])
        .optional()
        .describe("Only entries of this kind."),
      reason: ZSuppressionReason.optional().describe("Only entries with this reason."),
      search: z.string().max(100).optional().describe("Part of the email, domain, address or name."),
      cursor: ZCursor,
      take: ZTake,
    }),
    result: z.object({ suppressions: z.array(ZSuppressionOut), nextCursor: z.string().nullable() }),
    run: async (ctx, a) => ({
      requested: "The suppression list.",
      changed: [],
      result: await listSuppressions(ctx.db, { workspaceId: ctx.workspaceId, ...a }),
    }),
  }),
];
