import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { AppError } from "@/server/ground/errors";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace, uniq } from "@/test/factories";
import { liveApiCampaign } from "@/test/rest-fixtures";
import { acceptEntryEvent, getEntryEventStatus } from "./service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const accept = (
  f: Awaited<ReturnType<typeof liveApiCampaign>>,
  input: { contactId: string; idempotencyKey: string; occurredAt?: string },
  campaignId = f.campaign.id,
) =>
  acceptEntryEvent(prisma, {
    workspaceId: f.workspaceId,
    apiKeyId: null,
    source: "api",
    input: { campaignId, ...input },
  });

describe("acceptEntryEvent", () => {
  it("stores an accepted event with the given time, and a replay returns it without a second row", async () => {
    const f = await liveApiCampaign(prisma);
    const input = { contactId: f.contacts[0].id, idempotencyKey: uniq("k"), occurredAt: "2026-11-01T09:00:00-05:00" };
    const first = await accept(f, input);
    expect(first).toEqual({
      eventId: expect.stringMatching(/^evt_/),
      status: "accepted",
      replayed: false,
      contactId: f.contacts[0].id,
    });
    expect(await accept(f, { ...input, occurredAt: "2026-11-01T14:00:00Z" })).toEqual({ ...first, replayed: true });
    const rows = await prisma.entryEvent.findMany({ where: { workspaceId: f.workspaceId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      campaignId: f.campaign.id,
      contactId: f.contacts[0].id,
      occurredAt: new Date("2026-11-01T14:00:00Z"),
      source: "api",
    });
  });

  it("50 identical calls at once make one row; 50 conflicting ones make one row and 49 conflicts", async () => {
    const f = await liveApiCampaign(prisma);
    const key = uniq("k");
    const same = await Promise.all(
      Array.from({ length: 50 }, () => accept(f, { contactId: f.contacts[1].id, idempotencyKey: key })),
    );
    expect(new Set(same.map((r) => r.eventId)).size).toBe(1);
    const other = uniq("k");
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        accept(f, {
          contactId: f.contacts[i % 6].id,
          idempotencyKey: other,
          occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
        }),
      ),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    expect(rejected.every((o) => o.reason instanceof AppError && o.reason.code === "idempotency_key_reused")).toBe(
      true,
    );
    expect(await prisma.entryEvent.count({ where: { workspaceId: f.workspaceId } })).toBe(2);
  });

  it("refuses each precondition with its own code and writes nothing", async () => {
    const f = await liveApiCampaign(prisma);
    const outsider = await prisma.contact.create({
      data: { workspaceId: f.workspaceId, firstName: "Out", lastName: "Sider" },
    });
    const foreign = await liveApiCampaign(prisma);
    const paused = await prisma.campaign.create({
      data: {
        workspaceId: f.workspaceId,
        name: "Paused",
        format: "letter",
        status: "paused",
        acceptsApiEvents: true,
        audienceId: f.audience.id,
      },
    });
    const closed = await prisma.campaign.create({
      data: {
        workspaceId: f.workspaceId,
        name: "Closed",
        format: "letter",
        status: "live",
        acceptsApiEvents: false,
        audienceId: f.audience.id,
      },
    });
    const attempts: [string, () => Promise<unknown>][] = [
      ["not_found", () => accept(f, { contactId: f.contacts[0].id, idempotencyKey: uniq() }, foreign.campaign.id)],
      ["campaign_not_live", () => accept(f, { contactId: f.contacts[0].id, idempotencyKey: uniq() }, paused.id)],
      ["api_entry_not_accepted", () => accept(f, { contactId: f.contacts[0].id, idempotencyKey: uniq() }, closed.id)],
      ["contact_not_found", () => accept(f, { contactId: foreign.contacts[0].id, idempotencyKey: uniq() })],
      ["contact_not_in_audience", () => accept(f, { contactId: outsider.id, idempotencyKey: uniq() })],
    ];
    for (const [code, attempt] of attempts) await expect(attempt(), code).rejects.toMatchObject({ code });
    expect(
      await prisma.entryEvent.count({ where: { workspaceId: { in: [f.workspaceId, foreign.workspaceId] } } }),
    ).toBe(0);
  });
});

describe("getEntryEventStatus", () => {
  it("shows optional members only when they have a value, and 404s outside the event's campaign, workspace or key", async () => {
    const f = await liveApiCampaign(prisma);
    const key = await prisma.apiKey.create({
      data: { workspaceId: f.workspaceId, name: "k", hash: uniq("h"), start: "dmk_x", scopes: ["post_entry_events"] },
    });
    const { eventId } = await acceptEntryEvent(prisma, {
      workspaceId: f.workspaceId,
      apiKeyId: key.id,
      source: "api",
      input: { campaignId: f.campaign.id, contactId: f.contacts[0].id, idempotencyKey: uniq() },
    });
    const status = await getEntryEventStatus(prisma, {
      workspaceId: f.workspaceId,
      campaignId: f.campaign.id,
      eventId,
      apiKeyId: key.id,
    });
    expect(Object.keys(status).sort()).toEqual([
      "contactCrmIds",
      "contactEmail",
      "contactId",
      "eventId",
      "occurredAt",
      "status",
    ]);
    expect(status).toMatchObject({ contactId: f.contacts[0].id, contactEmail: f.contacts[0].email, contactCrmIds: [] });

    await prisma.entryEvent.update({
      where: { id: eventId },
      data: { status: "skipped", skipReason: "suppressed", completedAt: new Date("2026-11-02T00:00:00Z") },
    });
    expect(
      await getEntryEventStatus(prisma, {
        workspaceId: f.workspaceId,
        campaignId: f.campaign.id,
        eventId,
        apiKeyId: key.id,
      }),
    ).toEqual({
      eventId,
      status: "skipped",
      occurredAt: expect.any(String),
      contactId: f.contacts[0].id,
      contactEmail: f.contacts[0].email,
      contactCrmIds: [],
      skipReason: "suppressed",
      completedAt: "2026-11-02T00:00:00.000Z",
    });
    // Once the contact is deleted the read no longer names it.
    await prisma.contact.delete({ where: { id: f.contacts[0].id } });
    expect(
      Object.keys(
        await getEntryEventStatus(prisma, {
          workspaceId: f.workspaceId,
          campaignId: f.campaign.id,
          eventId,
          apiKeyId: key.id,
        }),
      ).sort(),
    ).toEqual(["completedAt", "eventId", "occurredAt", "skipReason", "status"]);

    const other = await createOwnerWorkspace(prisma);
    const otherCampaign = await prisma.campaign.create({
      data: { workspaceId: f.workspaceId, name: "Other", format: "gift" },
    });
    for (const params of [
      { workspaceId: other.workspaceId, campaignId: f.campaign.id, eventId, apiKeyId: key.id },
      { workspaceId: f.workspaceId, campaignId: otherCampaign.id, eventId, apiKeyId: key.id },
      { workspaceId: f.workspaceId, campaignId: f.campaign.id, eventId, apiKeyId: "key_other" },
    ]) {
      await expect(getEntryEventStatus(prisma, params)).rejects.toMatchObject({
        code: "not_found",
        message: "Nothing with that identifier is visible to this key.",
      });
    }
  });
});
