import { z } from "zod";
import { ConversionKind, ConversionStatus } from "@/generated/prisma/enums";
import { SID_LENGTH } from "@/server/programme/fulfilment/identifiers";
import { optionalString, pastDateTime, strictNumber } from "@/server/ground/http/fields";

export const CONVERSION_KINDS = Object.values(ConversionKind) as [ConversionKind, ...ConversionKind[]];
/** Kinds that carry money: amountCents is required for them and refused for the others. */
export const MONEY_KINDS: readonly ConversionKind[] = ["purchase", "pipeline_dollars", "closed_won"];

export const ZConversionKind = z.enum(CONVERSION_KINDS, {
  error: (iss) =>
    iss.input === undefined ? "kind is required." : `kind must be one of ${CONVERSION_KINDS.join(", ")}.`,
});

/** POST /api/v1/conversions (spec 2.4). */
export const ZReportConversionInput = z
  .strictObject({
    sid: z
      .string({ error: (iss) => (iss.input === undefined ? "sid is required." : "sid must be a string.") })
      .regex(new RegExp(`^[0-9A-Za-z]{${SID_LENGTH}}$`), {
        error: `sid must be exactly ${SID_LENGTH} letters and digits, as read from the destination URL.`,
      })
      .describe("The 16-character conversion id from the destination URL a printed response link redirected to."),
    kind: ZConversionKind.describe("What happened."),
    amountCents: strictNumber(
      z
        .number({
          error: (iss) =>
            `amountCents must be an integer number of cents, not ${iss.input === null ? "null" : typeof iss.input}.`,
        })
        .int({ error: "amountCents must be a whole number of cents." })
        .min(0, { error: "amountCents must not be negative." })
        .max(Number.MAX_SAFE_INTEGER, { error: "amountCents is too large." }),
    )
      .optional()
      .describe("Money in cents: required for purchase, pipeline_dollars and closed_won; refused for other kinds."),
    at: pastDateTime("at")
      .optional()
      .describe(
        "When it happened: ISO 8601 with a time-zone offset, not in the future. Defaults to the time of acceptance.",
      ),
    externalId: optionalString("externalId", 200).describe(
      "A stable id from your own system. With kind (and the sid) it identifies one occurrence; without it, `at` does.",
    ),
  })
  .superRefine((value, ctx) => {
    const money = MONEY_KINDS.includes(value.kind);
    if (money && value.amountCents === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["amountCents"],
        message: `amountCents is required when kind is ${value.kind}.`,
      });
    }
    if (!money && value.amountCents !== undefined && value.kind !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["amountCents"],
        message: `amountCents applies only to ${MONEY_KINDS.join(", ")}; leave it out for ${value.kind}.`,
      });
    }
  });
export type TReportConversionInput = z.infer<typeof ZReportConversionInput>;

export const ZConversionStatus = z
  .enum(Object.values(ConversionStatus) as [ConversionStatus, ...ConversionStatus[]])
  .describe(
    "accepted: stored, attribution pending; attributed: counted in the campaign's results; outside_window: kept but outside the attribution window.",
  );

/** 202 body (spec 2.5). */
export const ZConversionAccepted = z.object({
  outcomeId: z.string().describe("The recorded outcome's id (out_…)."),
  status: ZConversionStatus,
  at: z.string().describe("When the outcome happened (UTC): the given `at`, or the time of acceptance."),
});
