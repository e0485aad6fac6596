import { z } from "zod";
import { ZAudienceId, ZContactFilter, ZContactId } from "@/server/records/contacts/schema";

export const ZAudienceName = z
  .string()
  .trim()
  .min(1, "Give the audience a name.")
  .max(120, "At most 120 characters.")
  .refine((s) => !s.includes("\u0000"), "Contains a NUL character.");
/** At most this many contact ids per add or remove call. */
export const MAX_IDS_PER_CALL = 1000;
export const ZContactIds = z
  .array(ZContactId)
  .min(1, "Name at least one contact.")
  .max(MAX_IDS_PER_CALL, `At most ${MAX_IDS_PER_CALL} contacts per call.`)
  .describe(`The contacts (ctc_…), at most ${MAX_IDS_PER_CALL}.`);

export const ZAudienceCreate = z.object({
  name: ZAudienceName,
  contactIds: z.array(ZContactId).max(MAX_IDS_PER_CALL).optional(),
  filter: ZContactFilter.optional(),
});

export const ZAudienceMembersChange = z.object({ audienceId: ZAudienceId, contactIds: ZContactIds });

export const AUDIENCE_SOURCES = ["csv", "crm", "manual"] as const;

/** An audience with its size and the number of accounts its contacts belong to (holdouts are drawn per account). */
export const ZAudienceSummary = z.object({
  id: z.string(),
  name: z.string(),
  source: z
    .enum(AUDIENCE_SOURCES)
    .describe("csv: made by an import; crm: from a CRM; manual: made by a person or an agent."),
  size: z.number().int().describe("Contacts in the audience."),
  accounts: z.number().int().describe("Distinct accounts of those contacts."),
  createdAt: z.string(),
});
export type TAudienceSummary = z.infer<typeof ZAudienceSummary>;
