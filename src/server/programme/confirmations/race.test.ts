import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { updateBrandKit } from "@/server/programme/brand/service";
import { goLive, updateDraft } from "@/server/programme/campaigns/service";
import { ZDesignCreate } from "@/server/programme/designs/schema";
import { createDesign, updateDesign } from "@/server/programme/designs/service";
import { requestDraftGeneration, updateDraftBlocks } from "@/server/programme/drafts/service";
import { drainJobs } from "@/test/jobs";
import { isAppError } from "@/server/ground/errors";
import { testDatabase } from "@/test/database";
import { createAudience, createOwnerWorkspace } from "@/test/factories";
import { requestGoLive } from "./requests";
import { decideCard } from "./service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const agent = { kind: "agent" as const, id: "grt_race", label: "Racing agent (agent)" };

/** What a call ended with: its value, or the AppError code it was refused with; anything else is a failure of the service. */
async function settle<T>(call: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; code: string }> {
  try {
    return { ok: true, value: await call };
  } catch (error) {
    if (isAppError(error)) return { ok: false, code: error.code };
    throw error;
  }
}

async function readyDraft() {
  const o = await createOwnerWorkspace(prisma);
  const { audience } = await createAudience(prisma, o.workspaceId, { accounts: 3, perAccount: 1 });
  const campaign = await prisma.campaign.create({
    data: {
      workspaceId: o.workspaceId,
      name: "Raced",
      format: "postcard",
      acceptsApiEvents: true,
      audienceId: audience.id,
      destinationUrl: "https://acme.example/x",
      headline: "The approved headline",
      bodyTemplate: "Hello.",
    },
  });
  return { o, campaign, user: { id: o.user.id, email: o.user.email } };
}

describe("the confirmation gate under concurrent edits", () => {
  it("an edit racing the owner's acceptance never goes live unseen: either the edit lands and the card is void, or the card runs and the edit is refused", async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 12; round++) {
      const { o, campaign, user } = await readyDraft();
      const { card } = await requestGoLive(prisma, {
        workspaceId: o.workspaceId,
        campaignId: campaign.id,
        requestedBy: agent,
      });
      // The agent sends edits a few milliseconds apart while the owner clicks Accept; every other
      // round the first edit starts just before the click.
      const edit = (i: number) =>
        settle(
          updateDraft(prisma, {
            workspaceId: o.workspaceId,
            campaignId: campaign.id,
            input: { headline: `An unseen headline ${i}` },
            actor: agent,
          }),
        );
      const first = round % 2 === 0 ? [edit(0)] : [];
      const decision = settle(
        decideCard(prisma, { workspaceId: o.workspaceId, cardId: card.id, decision: "accept", user }),
      );
      const edits = [
        ...first,
        ...[0, 1, 3, 6].map((delay, i) => new Promise((r) => setTimeout(r, delay)).then(() => edit(i + 1))),
      ];
      const [decided, ...edited] = await Promise.all([decision, ...edits]);

      const after = await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
      const cardAfter = await prisma.confirmationCard.findUniqueOrThrow({ where: { id: card.id } });
      const audit = await prisma.auditLogEntry.findMany({
        where: { workspaceId: o.workspaceId },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      });
      const wentLive = audit.findIndex((a) => a.action === "campaign.went_live");
      if (after.status === "live") {
        outcomes.add("live");
        // What went live is exactly what the card described, and no edit was recorded after it.
        expect(decided).toMatchObject({ ok: true, value: { status: "accepted", executionError: null } });
        expect(after.headline).toBe("The approved headline");
        expect(edited.every((e) => !e.ok && e.code === "invalid_state")).toBe(true);
        expect(audit.slice(wentLive).some((a) => a.action === "campaign.updated")).toBe(false);
      } else {
        outcomes.add("draft");
        // An edit landed first: the card is void and nothing went live.
        expect(after.status).toBe("draft");
        expect(wentLive).toBe(-1);
        expect(cardAfter.executedAt).toBeNull();
        expect(["expired", "accepted"]).toContain(cardAfter.status);
        if (decided.ok) expect(decided.value.executionError).toEqual(expect.any(String));
        else expect(["invalid_state", "conflict"]).toContain(decided.code);
        expect(edited.some((e) => e.ok)).toBe(true);
      }
    }
  });

  it("a card made before an edit does not run the edited draft, even if the edit's expiry of the card was missed", async () => {
    const { o, campaign, user } = await readyDraft();
    const { card } = await requestGoLive(prisma, {
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      requestedBy: agent,
    });
    // The draft changes behind the card's back (as an edit that raced the card's creation would).
    await prisma.campaign.update({
      where: { id: campaign.id },
      data: { headline: "Changed after the card was made", draftVersion: { increment: 1 } },
    });
    const decided = await settle(
      decideCard(prisma, { workspaceId: o.workspaceId, cardId: card.id, decision: "accept", user }),
    );
    expect(decided).toMatchObject({
      ok: true,
      value: { status: "accepted", executedAt: null, executionError: expect.stringContaining("changed") },
    });
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("draft");
  });

  it("an edit after go-live is refused and changes nothing", async () => {
    const { o, campaign, user } = await readyDraft();
    const { card } = await requestGoLive(prisma, {
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      requestedBy: agent,
    });
    await decideCard(prisma, { workspaceId: o.workspaceId, cardId: card.id, decision: "accept", user });
    await expect(
      updateDraft(prisma, {
        workspaceId: o.workspaceId,
        campaignId: campaign.id,
        input: { headline: "Too late" },
        actor: agent,
      }),
    ).rejects.toMatchObject({ code: "invalid_state" });
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).headline).toBe(
      "The approved headline",
    );
    expect(
      await prisma.auditLogEntry.count({ where: { workspaceId: o.workspaceId, action: "campaign.updated" } }),
    ).toBe(0);
  });
});

describe("every change to what a draft campaign prints voids its pending go-live card", () => {
  const owner = { kind: "user" as const, id: null, label: "owner@example.test" };

  async function designedDraft() {
    const f = await readyDraft();
    const design = await createDesign(prisma, {
      workspaceId: f.o.workspaceId,
      actor: owner,
      input: ZDesignCreate.parse({ name: "Spring", format: "postcard", size: "4x6", layout: "bold" }),
    });
    await prisma.campaign.update({ where: { id: f.campaign.id }, data: { designId: design.id } });
    return { ...f, design };
  }
  async function cardThenChange(f: Awaited<ReturnType<typeof readyDraft>>, change: () => Promise<unknown>) {
    const { card } = await requestGoLive(prisma, {
      workspaceId: f.o.workspaceId,
      campaignId: f.campaign.id,
      requestedBy: agent,
    });
    const before = await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } });
    await change();
    const after = await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } });
    expect(after.draftVersion).toBeGreaterThan(before.draftVersion);
    expect((await prisma.confirmationCard.findUniqueOrThrow({ where: { id: card.id } })).status).toBe("expired");
    // Accepting the void card runs nothing.
    await expect(
      decideCard(prisma, { workspaceId: f.o.workspaceId, cardId: card.id, decision: "accept", user: f.user }),
    ).rejects.toMatchObject({ code: "invalid_state" });
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } })).status).toBe("draft");
  }

  it("one recipient's rewritten draft", async () => {
    const f = await designedDraft();
    await requestDraftGeneration(prisma, { workspaceId: f.o.workspaceId, campaignId: f.campaign.id, actor: agent });
    expect(await drainJobs(prisma, { workspaceId: f.o.workspaceId })).toEqual(["succeeded"]);
    const draft = await prisma.draft.findFirstOrThrow({ where: { campaignId: f.campaign.id } });
    await cardThenChange(f, () =>
      updateDraftBlocks(prisma, {
        workspaceId: f.o.workspaceId,
        draftId: draft.id,
        blocks: { headline: "Just for you" },
        actor: agent,
      }),
    );
  }, 60_000);

  it("the campaign's design, and the brand kit", async () => {
    const f = await designedDraft();
    await cardThenChange(f, () =>
      updateDesign(prisma, {
        workspaceId: f.o.workspaceId,
        designId: f.design.id,
        changes: { blocks: { headline: "A new headline" } },
        actor: agent,
      }),
    );
    await cardThenChange(f, () =>
      updateBrandKit(prisma, { workspaceId: f.o.workspaceId, input: { colors: { primary: "#0b7285" } }, actor: owner }),
    );
  }, 60_000);

  it("drafts being generated: going live waits for the job, and a job that finds the campaign live renders nothing", async () => {
    const f = await designedDraft();
    await requestDraftGeneration(prisma, { workspaceId: f.o.workspaceId, campaignId: f.campaign.id, actor: agent });
    await expect(
      goLive(prisma, { workspaceId: f.o.workspaceId, campaignId: f.campaign.id, actor: owner }),
    ).rejects.toMatchObject({ code: "invalid_state", message: expect.stringContaining("still being generated") });
    // The job is gone (say it ran elsewhere and finished); then the campaign goes live and a late job finds it live.
    await drainJobs(prisma, { workspaceId: f.o.workspaceId });
    await goLive(prisma, { workspaceId: f.o.workspaceId, campaignId: f.campaign.id, actor: owner });
    const drafts = await prisma.draft.findMany({
      where: { campaignId: f.campaign.id },
      select: { id: true, renderedAt: true },
      orderBy: { id: "asc" },
    });
    await prisma.job.create({
      data: {
        workspaceId: f.o.workspaceId,
        kind: "drafts_generate",
        title: "Late",
        input: { campaignId: f.campaign.id },
        unit: "drafts",
        requestedByKind: "agent",
        requestedByLabel: agent.label,
      },
    });
    expect(await drainJobs(prisma, { workspaceId: f.o.workspaceId })).toEqual(["failed"]);
    const job = await prisma.job.findFirstOrThrow({ where: { workspaceId: f.o.workspaceId, title: "Late" } });
    expect(job.error).toBe("“Raced” is no longer a draft, so its drafts cannot change; nothing more was rendered.");
    expect(
      await prisma.draft.findMany({
        where: { campaignId: f.campaign.id },
        select: { id: true, renderedAt: true },
        orderBy: { id: "asc" },
      }),
    ).toEqual(drafts);
  }, 60_000);

  it("a design printed by a live campaign cannot change", async () => {
    const f = await designedDraft();
    await goLive(prisma, { workspaceId: f.o.workspaceId, campaignId: f.campaign.id, actor: owner });
    await expect(
      updateDesign(prisma, {
        workspaceId: f.o.workspaceId,
        designId: f.design.id,
        changes: { blocks: { headline: "Sneaky" } },
        actor: agent,
      }),
    ).rejects.toMatchObject({ code: "invalid_state" });
    expect((await prisma.design.findUniqueOrThrow({ where: { id: f.design.id } })).blocks).not.toMatchObject({
      headline: "Sneaky",
    });
  }, 60_000);
});
