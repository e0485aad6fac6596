import { z } from "zod";
import { CONVERSION_KINDS } from "@/server/programme/conversions/schema";
import { AppError } from "@/server/ground/errors";
import { importOutcomes, ZImportOutcomesInput } from "@/server/programme/holdouts/outcomes";
import { parseOutcomesCsv } from "@/server/programme/holdouts/outcomes-csv";
import { defineTool } from "../tool";

export const outcomeTools = [
  defineTool({
    name: "outcomes_import",
    title: "Import account outcomes",
    description: `Records account outcomes (results_get) from CSV with columns account (domain or CRM id), kind (${CONVERSION_KINDS.join(", ")}), at (date or date-time), amount (dollars, for money kinds) and external_id (optional). At most 5,000 rows. All or nothing: a bad row (unknown account, bad kind or date, a recorded occurrence with other values) is reported by number, nothing written; the same file again changes nothing.`,
    scope: "contacts:write",
    kind: "write",
    idempotent: true,
    input: z.object({ csv: z.string().min(1).max(2_000_000).describe("The CSV text, header row first.") }),
    result: z.object({
      created: z.number().int().describe("Outcomes written (0 when any row has an error)."),
      unchanged: z.number().int().describe("Rows identical to an outcome already recorded."),
      errors: z.array(z.object({ row: z.number().int().describe("1 is the first data row."), message: z.string() })),
    }),
    run: async (ctx, a) => {
      const { rows, missing } = parseOutcomesCsv(a.csv);
      if (missing.length) {
        throw new AppError(
          "validation_failed",
          `The CSV needs the columns account, kind and at (amount and external_id are optional); missing: ${missing.join(", ")}.`,
          { errors: [{ pointer: "/csv", detail: `Missing columns: ${missing.join(", ")}.` }] },
        );
      }
      const input = ZImportOutcomesInput.safeParse({ rows, source: "csv" });
      if (!input.success)
        throw new AppError("validation_failed", input.error.issues.map((i) => i.message).join(" "), {
          errors: [{ pointer: "/csv", detail: input.error.issues[0].message }],
        });
      const report = await importOutcomes(ctx.db, {
        workspaceId: ctx.workspaceId,
        rows: input.data.rows,
        source: "csv",
        actor: ctx.actor,
      });
      return {
        requested: `Import ${rows.length} outcome rows.`,
        changed: report.created ? [`Recorded ${report.created} account outcomes.`] : [],
        result: report,
        refused: report.errors.length > 0,
      };
    },
    errorHints: { invalid_argument: "Fix the CSV as the message says and send it again; nothing was written." },
  }),
];
