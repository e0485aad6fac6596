import { z } from "zod";
import { listAudiences } from "@/server/audiences/service";
import { getContact, listContacts } from "@/server/contacts/service";
import { getWorkspaceSummary } from "@/server/workspaces/service";
import { defineTool } from "../tool";

const ZId = (what: string) => z.string().min(1).max(64).describe(what);

export const workspaceTools = [
  defineTool({
    name: "workspace_get_summary",
    title: "Workspace summary",
    description:
      "The workspace this agent acts in: its plan (on the free audit plan everything works except reaching a mailbox), whether mailing is on, and how many contacts, accounts, audiences, campaigns (by status), API keys and mailed pieces it has. Call this first.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({}),
    result: z.looseObject({
      id: z.string(),
      name: z.string(),
      plan: z.enum(["audit", "paid"]),
      mailingEnabled: z.boolean(),
      counts: z.looseObject({ contacts: z.number(), accounts: z.number(), audiences: z.number() }),
    }),
    run: async (ctx) => ({ requested: "The workspace summary.", changed: [], result: await getWorkspaceSummary(ctx.db, { workspaceId: ctx.workspaceId }) }),
  }),
  defineTool({
    name: "audiences_list",
    title: "List audiences",
    description: "The workspace's audiences (lists of contacts a campaign mails), newest first, with their sizes.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({}),
    result: z.object({ audiences: z.array(z.looseObject({ id: z.string(), name: z.string(), members: z.number() })) }),
    run: async (ctx) => ({ requested: "The list of audiences.", changed: [], result: { audiences: await listAudiences(ctx.db, { workspaceId: ctx.workspaceId }) } }),
  }),
  defineTool({
    name: "contacts_list",
    title: "List contacts",
    description:
      "One page of contacts (name, title, email, city, country, address status, account, CRM id), optionally of one audience or matching a name, email or company. Pass nextCursor back as cursor for the next page.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({
      audienceId: ZId("Only contacts of this audience (aud_…).").optional(),
      query: z.string().max(100).optional().describe("Matches first or last name, email or company name."),
      cursor: z.string().max(64).optional().describe("nextCursor of the previous page."),
      take: z.number().int().min(1).max(100).default(25).describe("Page size, 1 to 100."),
    }),
    result: z.object({ contacts: z.array(z.looseObject({ id: z.string(), firstName: z.string(), lastName: z.string() })), nextCursor: z.string().nullable() }),
    run: async (ctx, a) => ({ requested: "A page of contacts.", changed: [], result: await listContacts(ctx.db, { workspaceId: ctx.workspaceId, ...a }) }),
  }),
  defineTool({
    name: "contacts_get",
    title: "Read a contact",
    description: "One contact with its postal address, account and audiences.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({ contactId: ZId("The contact's id (ctc_…).") }),
    result: z.looseObject({ id: z.string(), firstName: z.string(), lastName: z.string(), audiences: z.array(z.object({ id: z.string(), name: z.string() })) }),
    run: async (ctx, a) => ({ requested: `Contact ${a.contactId}.`, changed: [], result: await getContact(ctx.db, { workspaceId: ctx.workspaceId, contactId: a.contactId }) }),
  }),
];
