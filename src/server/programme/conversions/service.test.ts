import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { uniq } from "@/test/factories";
import { liveApiCampaign } from "@/test/rest-fixtures";
import { ZReportConversionInput } from "./schema";
import { occurrenceKey, reportConversion } from "./service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

describe("occurrenceKey", () => {
  it("is the externalId, else the normalised at, else nothing", () => {
    expect(occurrenceKey({ externalId: "x1", at: "2026-01-01T00:00:00Z" })).toBe("x:x1");
    expect(occurrenceKey({ at: "2026-01-01T01:00:00+01:00" })).toBe("t:2026-01-01T00:00:00.000Z");
    expect(occurrenceKey({})).toBe("-");
  });
});

describe("ZReportConversionInput", () => {
  it("keeps amountCents a JSON number (no coercion from strings)", () => {
    const parsed = ZReportConversionInput.safeParse({ sid: "A".repeat(16), kind: "purchase", amountCents: "100" });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.message)).toEqual([
      "amountCents must be an integer number of cents, not string.",
    ]);
  });
});

describe("reportConversion", () => {
  it("records against the piece's campaign, stores money as cents, and retries return the same outcome", async () => {
    const f = await liveApiCampaign(prisma);
    const input = ZReportConversionInput.parse({
      sid: f.piece.sid,
      kind: "closed_won",
      amountCents: 9_000_000_000_00,
      externalId: "opp-1",
    });
    const first = await reportConversion(prisma, { workspaceId: f.workspaceId, apiKeyId: null, input });
    expect(await reportConversion(prisma, { workspaceId: f.workspaceId, apiKeyId: null, input })).toEqual(first);
    const row = await prisma.conversion.findUniqueOrThrow({ where: { id: first.outcomeId } });
    expect(row).toMatchObject({
      campaignId: f.campaign.id,
      pieceId: f.piece.id,
      amountCents: 900_000_000_000n,
      occurrenceKey: "x:opp-1",
      status: "accepted",
    });
  });

  it("under concurrency: 50 identical reports make one row; 50 conflicting make one row and 49 conflicts", async () => {
    const f = await liveApiCampaign(prisma);
    const report = (amountCents: number, externalId: string) =>
      reportConversion(prisma, {
        workspaceId: f.workspaceId,
        apiKeyId: null,
        input: ZReportConversionInput.parse({ sid: f.piece.sid, kind: "purchase", amountCents, externalId }),
      });
    const same = await Promise.all(Array.from({ length: 50 }, () => report(500, "o-1")));
    expect(new Set(same.map((r) => r.outcomeId)).size).toBe(1);
    const conflicting = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => report(600 + i, "o-2")));
    expect(conflicting.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(
      conflicting
        .filter((r) => r.status === "rejected")
        .every((r) => (r as PromiseRejectedResult).reason.code === "conversion_conflict"),
    ).toBe(true);
    expect(await prisma.conversion.count({ where: { workspaceId: f.workspaceId } })).toBe(2);
  });

  it("an unknown sid and another workspace's sid are the same 404, and nothing is written", async () => {
    const f = await liveApiCampaign(prisma);
    const other = await liveApiCampaign(prisma);
    for (const sid of [other.piece.sid, uniq("s").padEnd(16, "x").slice(0, 16)]) {
      await expect(
        reportConversion(prisma, {
          workspaceId: f.workspaceId,
          apiKeyId: null,
          input: ZReportConversionInput.parse({ sid, kind: "reply" }),
        }),
      ).rejects.toMatchObject({ code: "not_found", message: "Nothing with that identifier is visible to this key." });
    }
    expect(await prisma.conversion.count({ where: { workspaceId: { in: [f.workspaceId, other.workspaceId] } } })).toBe(
      0,
    );
  });
});
