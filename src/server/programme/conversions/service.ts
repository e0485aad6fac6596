import type { PrismaClient } from "@/generated/prisma/client";
import { AppError, NOT_FOUND_DETAIL } from "@/server/ground/errors";
import { fingerprint } from "@/server/ground/platform/fingerprint";
import type { TReportConversionInput } from "./schema";

/**
 * The identity of one occurrence, with the piece and the kind: the caller's externalId, else the
 * given `at`, else nothing (a minimal body: one occurrence of that kind per piece).
 */
export function occurrenceKey(input: { externalId?: string; at?: string }): string {
  if (input.externalId !== undefined) return `x:${input.externalId}`;
  if (input.at !== undefined) return `t:${new Date(input.at).toISOString()}`;
  return "-";
}

/**
 * Records a conversion against the piece that carries the sid (spec 4.3). An unknown sid and a sid
 * of another workspace are the same 404. Retrying an occurrence with the same values returns the
 * same outcome; its identity with other values is a conflict. Nothing is written on failure.
 */
export async function reportConversion(
  prisma: PrismaClient,
  params: { workspaceId: string; apiKeyId: string | null; input: TReportConversionInput; now?: Date },
) {
  const { workspaceId, input } = params;
  const piece = await prisma.mailPiece.findFirst({
    where: { sid: input.sid, workspaceId },
    select: { id: true, campaignId: true },
  });
  if (!piece) throw new AppError("not_found", NOT_FOUND_DETAIL);

  const key = occurrenceKey(input);
  const print = fingerprint({
    kind: input.kind,
    amountCents: input.amountCents,
    at: input.at ? new Date(input.at).toISOString() : undefined,
    externalId: input.externalId,
  });
  const select = { id: true, status: true, at: true, fingerprint: true } as const;
  const [created] = await prisma.conversion.createManyAndReturn({
    data: [
      {
        workspaceId,
        campaignId: piece.campaignId,
        pieceId: piece.id,
        kind: input.kind,
        amountCents: input.amountCents === undefined ? null : BigInt(input.amountCents),
        at: input.at ? new Date(input.at) : (params.now ?? new Date()),
        externalId: input.externalId ?? null,
        occurrenceKey: key,
        fingerprint: print,
        apiKeyId: params.apiKeyId,
      },
    ],
    skipDuplicates: true,
    select,
  });
  const row =
    created ??
    (await prisma.conversion.findUniqueOrThrow({
      where: { pieceId_kind_occurrenceKey: { pieceId: piece.id, kind: input.kind, occurrenceKey: key } },
      select,
    }));
  if (row.fingerprint !== print) {
    throw new AppError(
      "conversion_conflict",
      "This occurrence (sid, kind and externalId, or at) was already reported with other values. Give each occurrence its own externalId or at.",
    );
  }
  return { outcomeId: row.id, status: row.status, at: row.at.toISOString() };
}
