import { z } from "zod";
import { ZContactMailability } from "@/server/programme/mailability/schema";
import { contactMailability } from "@/server/programme/mailability/fixes";
import { getAccount, listAccounts } from "@/server/records/contacts/accounts-service";
import { ZAccountId, ZContactFilter } from "@/server/records/contacts/schema";
import { resolveContactRef } from "@/server/records/contacts/contact-refs";
import { ZContactRefArg } from "./contact-identity";
import { getContact, listContacts } from "@/server/records/contacts/service";
import { CONTACT_FIELDS } from "@/server/records/contacts/csv-headers";
import { INLINE_IMPORT_ROWS, MAX_IMPORT_ROWS, MAX_TEXT_IMPORT_CHARS } from "@/server/programme/imports/limits";
import { ZImportId, ZOnExisting } from "@/server/programme/imports/schema";
import {
  discardUpload,
  importReport,
  mappingByName,
  runImportNow,
  startImport,
} from "@/server/programme/imports/service";
import { receiveUpload } from "@/server/programme/imports/upload";
import { ZCursor, ZTake } from "./paging";
import type { McpContext } from "../context";
import { logWork } from "../logging";
import { defineTool } from "../tool";
import { ZAccountOut, ZAccountRowOut, ZContactOut, ZContactRowOut, ZImportReport } from "./people-schemas";

async function* textBytes(text: string) {
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.byteLength; i += 1 << 20) yield bytes.subarray(i, i + (1 << 20));
}

/** An import's progress or end as a log notification, and its refused rows as a warning. */
async function logImport(ctx: McpContext, report: Awaited<ReturnType<typeof importReport>>) {
  await logWork(ctx.log, `Import ${report.importId}`, report, { importId: report.importId });
  if (report.status === "succeeded" && report.refusedCount > 0)
    await ctx.log?.("warning", {
      message: `Import ${report.importId}: ${report.refusedCount} rows refused; imports_get lists them with the reason.`,
      importId: report.importId,
      refusedCount: report.refusedCount,
    });
}

export const contactTools = [
  defineTool({
    name: "contacts_import",
    title: "Import contacts from CSV text",
    description: `Imports contacts from CSV (comma, semicolon or tab; at most ${MAX_TEXT_IMPORT_CHARS.toLocaleString("en-US")} characters, ${MAX_IMPORT_ROWS.toLocaleString("en-US")} rows) into audienceId, audienceName or a new audience. Headers map themselves, others become custom fields (mapping overrides). A contact already here (same email, else CRM id, else name and address) is updated or left (onExisting); the same text again changes nothing. A row with no name and no email is refused (isError, with the report). Up to ${INLINE_IMPORT_ROWS.toLocaleString("en-US")} rows finish within the call; a larger one answers status running: follow it with imports_get.`,
    scope: "contacts:write",
    kind: "write",
    idempotent: false,
    destructive: true,
    input: z.object({
      csv: z
        .string()
        .min(1, "Send the CSV text, header row first.")
        .max(
          MAX_TEXT_IMPORT_CHARS,
          `At most ${MAX_TEXT_IMPORT_CHARS.toLocaleString("en-US")} characters; split larger files.`,
        )
        .describe("The CSV text, header row first."),
      audienceId: z.string().min(1).max(64).optional().describe("An existing audience (aud_…) to add the contacts to."),
      audienceName: z
        .string()
        .trim()
        .min(1)
        .max(120)
        .optional()
        .describe("The audience to add them to, by name: made if there is none with this name."),
      mapping: z
        .record(z.string().max(200), z.string().max(80))
        .optional()
        .describe(
          `Column name -> ${CONTACT_FIELDS.join(", ")}, "custom", "custom:<name>" or "ignore", e.g. { "E-mail": "email", "Shoe size": "custom" }. Columns not named keep their automatic mapping.`,
        ),
      onExisting: ZOnExisting.optional(),
    }),
    result: ZImportReport,
    run: async (ctx, a) => {
      const upload = await receiveUpload(ctx.db, {
        workspaceId: ctx.workspaceId,
        fileName: `${ctx.clientName} import.csv`,
        body: textBytes(a.csv),
        actor: ctx.actor,
      });
      const start = async () =>
        startImport(ctx.db, {
          workspaceId: ctx.workspaceId,
          importId: upload.importId,
          mapping: mappingByName(upload.columns, upload.suggestedMapping, a.mapping),
          onExisting: a.onExisting ?? "update",
          audienceId: a.audienceId,
          audienceName:
            a.audienceName ??
            (a.audienceId
              ? undefined
              : `Import by ${ctx.clientName} ${new Date().toISOString().slice(0, 16).replace("T", " ")}`),
          actor: ctx.actor,
        });
      // A mapping or an audience refused leaves no upload behind: the file is discarded, as the
      // owner's import page does with a file it never imports.
      const started = await start().catch(async (error: unknown) => {
        await discardUpload(ctx.db, {
          workspaceId: ctx.workspaceId,
          importId: upload.importId,
          actor: ctx.actor,
        }).catch(() => undefined);
        throw error;
      });
      await ctx.log?.("info", {
        message: `Import ${upload.importId}: ${upload.rows} rows received${upload.rows <= INLINE_IMPORT_ROWS ? ", importing now" : ", queued for the worker"}.`,
        importId: upload.importId,
        rows: upload.rows,
      });
      if (upload.rows <= INLINE_IMPORT_ROWS && started.job)
        await runImportNow(ctx.db, {
          workspaceId: ctx.workspaceId,
          importId: upload.importId,
          jobId: started.job.jobId,
        });
      const report = await importReport(ctx.db, { workspaceId: ctx.workspaceId, importId: upload.importId });
      const changed =
        report.status === "succeeded"
          ? [
              `Import ${report.importId}: ${report.created} contacts created, ${report.updated} updated, ${report.skipped} skipped, ${report.refusedCount} rows refused; all in audience ${report.audienceId}.`,
            ]
          : [
              `Import ${report.importId} of ${report.rows} rows started into audience ${report.audienceId}; follow it with imports_get.`,
            ];
      await logImport(ctx, report);
      return {
        requested: `Import ${upload.rows} rows of CSV.`,
        changed,
        result: report,
        refused: report.refusedCount > 0,
      };
    },
  }),
  defineTool({
    name: "imports_get",
    title: "Read an import",
    description:
      "An import's status and report: counts, columns, duplicate and refused rows 100 at a time (duplicatesAfterRow, refusedAfterRow page on), warnings, audience, progress.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({
      importId: ZImportId.describe("The importId contacts_import returned (imp_…)."),
      refusedAfterRow: z
        .number()
        .int()
        .min(1)
        .max(10_000_000)
        .optional()
        .describe("nextRefusedAfterRow of the previous answer."),
      duplicatesAfterRow: z
        .number()
        .int()
        .min(1)
        .max(10_000_000)
        .optional()
        .describe("nextDuplicatesAfterRow of the previous answer."),
    }),
    result: ZImportReport,
    run: async (ctx, a) => {
      const report = await importReport(ctx.db, {
        workspaceId: ctx.workspaceId,
        importId: a.importId,
        refusedAfterRow: a.refusedAfterRow,
        duplicatesAfterRow: a.duplicatesAfterRow,
      });
      await logImport(ctx, report);
      return { requested: `Import ${a.importId}.`, changed: [], result: report };
    },
  }),
  defineTool({
    name: "contacts_list",
    title: "List contacts",
    description:
      "One page of contacts, newest first, with address status, CRM id, source, account, whether suppressed. search matches word starts of a name, email or company. An unknown audience, account or cursor is an error.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: ZContactFilter.extend({
      query: z.string().max(100).optional().describe("The same as search (older name)."),
      cursor: ZCursor,
      take: ZTake,
    }),
    result: z.object({ contacts: z.array(ZContactRowOut), nextCursor: z.string().nullable() }),
    run: async (ctx, a) => {
      const { query, search, ...rest } = a;
      return {
        requested: "A page of contacts.",
        changed: [],
        result: await listContacts(ctx.db, { workspaceId: ctx.workspaceId, ...rest, search: search ?? query }),
      };
    },
  }),
  defineTool({
    name: "contacts_get",
    title: "Read a contact",
    description:
      "Every field of one contact, its account, audiences, pieces with conversions, the account's outcomes, suppressions that stop it, and its mailability with reasons.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({ contactId: ZContactRefArg }),
    result: ZContactOut.extend({ mailability: ZContactMailability }),
    run: async (ctx, a) => {
      const contactId = await resolveContactRef(ctx.db, { workspaceId: ctx.workspaceId, ref: a.contactId });
      const contact = await getContact(ctx.db, { workspaceId: ctx.workspaceId, contactId });
      return {
        requested: `Contact ${a.contactId}.`,
        changed: [],
        result: {
          ...contact,
          mailability: await contactMailability(ctx.db, { workspaceId: ctx.workspaceId, contactId }),
        },
      };
    },
  }),
  defineTool({
    name: "accounts_list",
    title: "List accounts",
    description:
      "One page of accounts (companies; holdouts are per account), newest first, with domain, CRM id and contact count. search matches word starts of the name or domain.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({
      search: z.string().max(100).optional().describe("Words of the account's name or domain."),
      cursor: ZCursor,
      take: ZTake,
    }),
    result: z.object({ accounts: z.array(ZAccountRowOut), nextCursor: z.string().nullable() }),
    run: async (ctx, a) => ({
      requested: "A page of accounts.",
      changed: [],
      result: await listAccounts(ctx.db, { workspaceId: ctx.workspaceId, ...a }),
    }),
  }),
  defineTool({
    name: "accounts_get",
    title: "Read an account",
    description: "One account: domain, CRM id, source, contact count, audiences, holdout arm per campaign, outcomes.",
    scope: "workspace:read",
    kind: "read",
    idempotent: true,
    input: z.object({ accountId: ZAccountId.describe("The account's id (acc_…).") }),
    result: ZAccountOut,
    run: async (ctx, a) => ({
      requested: `Account ${a.accountId}.`,
      changed: [],
      result: await getAccount(ctx.db, { workspaceId: ctx.workspaceId, accountId: a.accountId }),
    }),
  }),
];
