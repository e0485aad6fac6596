import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { createDesign } from "@/server/programme/designs/service";
import { ZDesignCreate } from "@/server/programme/designs/schema";
import { loadPiecePdf } from "@/server/records/pieces/print-file";
import { testDatabase } from "@/test/database";
import { createAudience, createOwnerWorkspace } from "@/test/factories";
import { drainJobs } from "@/test/jobs";
import { drain, eventRow, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";
import { hasPoppler, pdfText } from "@/test/pdf-tools";
import { draftsRenderedOnThreads } from "./render-pool";
import {
  draftSummary,
  draftsJobStatus,
  editedSample,
  getDraft,
  listDrafts,
  requestDraftGeneration,
  updateDraftBlocks,
} from "./service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});
const actor = { kind: "user" as const, id: null, label: "owner@example.test" };

async function draftCampaign(plan: "audit" | "paid" = "paid") {
  const o = await createOwnerWorkspace(prisma, { plan });
  const { audience, contacts } = await createAudience(prisma, o.workspaceId, { accounts: 3, perAccount: 2 });
  await prisma.contact.update({ where: { id: contacts[0].id }, data: { firstName: "Łukasz", lastName: "Wiśniewski" } });
  await prisma.contact.update({ where: { id: contacts[1].id }, data: { firstName: "", lastName: "Đặng" } });
  await prisma.contact.update({
    where: { id: contacts[2].id },
    data: {
      firstName:
        "Wolfeschlegelsteinhausenbergerdorffwelchevoralternwarengewissenhaftschaferswessenschafewarenwohlgepflegeundsorgfaltigkeitbeschutzen",
    },
  });
  const design = await createDesign(prisma, {
    workspaceId: o.workspaceId,
    actor,
    input: ZDesignCreate.parse({ name: "Spring", format: "postcard", size: "4x6", layout: "bold" }),
  });
  const campaign = await prisma.campaign.create({
    data: {
      workspaceId: o.workspaceId,
      name: "Spring",
      format: "postcard",
      acceptsApiEvents: true,
      audienceId: audience.id,
      designId: design.id,
      headline: "{{firstName}}, {{firstName}} and {{company}}: hello",
      bodyTemplate: "Hi {{firstName|there}}.",
      signOff: "Sam",
    },
  });
  return { ...o, audience, contacts, design, campaign };
}

describe("drafts", () => {
  it("renders one draft per recipient as a job, with counts for overflowing and missing merge data, and filters", async () => {
    const f = await draftCampaign();
    const { job } = await requestDraftGeneration(prisma, {
      workspaceId: f.workspaceId,
      campaignId: f.campaign.id,
      actor,
    });
    expect(job).toMatchObject({ kind: "drafts_generate", status: "queued", progressTotal: 6, unit: "drafts" });
    // Asking again while it is queued returns the same job.
    expect(
      (await requestDraftGeneration(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, actor })).job.id,
    ).toBe(job.id);
    expect(await drainJobs(prisma, { workspaceId: f.workspaceId })).toEqual(["succeeded"]);
    const status = await draftsJobStatus(prisma, { workspaceId: f.workspaceId, jobId: job.id });
    expect(status.result).toEqual({ campaignId: f.campaign.id, drafts: 6, overflowing: 1, missingData: 1, edited: 0 });
    expect(status.view.progress).toMatchObject({ done: 6, total: 6, percent: 100 });

    const all = await listDrafts(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, take: 4 });
    expect(all.drafts).toHaveLength(4);
    const rest = await listDrafts(prisma, {
      workspaceId: f.workspaceId,
      campaignId: f.campaign.id,
      take: 4,
      cursor: all.nextCursor,
    });
    expect([rest.drafts.length, rest.nextCursor]).toEqual([2, null]);
    const overflowing = await listDrafts(prisma, {
      workspaceId: f.workspaceId,
      campaignId: f.campaign.id,
      filter: "overflowing",
      take: 10,
    });
    expect(overflowing.drafts.map((d) => d.contactId)).toEqual([f.contacts[2].id]);
    const missing = await listDrafts(prisma, {
      workspaceId: f.workspaceId,
      campaignId: f.campaign.id,
      filter: "missing_data",
      take: 10,
    });
    expect(missing.drafts.map((d) => [d.contactId, d.missingFields])).toEqual([[f.contacts[1].id, ["firstName"]]]);
    const lukasz = (
      await listDrafts(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, take: 10 })
    ).drafts.find((d) => d.contactId === f.contacts[0].id)!;
    expect(lukasz).toMatchObject({ headline: "Łukasz, Łukasz and Account 0: hello", specimen: false, pages: 2 });
    expect(lukasz.pdfBytes).toBeLessThan(500 * 1024);
    await expect(
      listDrafts(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, take: 4, cursor: "drf_nope" }),
    ).rejects.toMatchObject({ code: "not_found" });
  }, 120_000);

  it("a large job renders on threads while the batch before is written: the same drafts, in the same order, as on the calling thread", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "paid" });
    const { audience } = await createAudience(prisma, o.workspaceId, { accounts: 20, perAccount: 3 });
    const design = await createDesign(prisma, {
      workspaceId: o.workspaceId,
      actor,
      input: ZDesignCreate.parse({ name: "Spring", format: "postcard", size: "6x9", layout: "bold" }),
    });
    const campaign = await prisma.campaign.create({
      data: {
        workspaceId: o.workspaceId,
        name: "Spring",
        format: "postcard",
        audienceId: audience.id,
        designId: design.id,
        headline: "{{firstName}} at {{company}}",
        bodyTemplate: "Hi {{firstName|there}}.",
        signOff: "Sam",
      },
    });
    const generate = async (env: Record<string, string>) => {
      Object.assign(process.env, env);
      try {
        const { job } = await requestDraftGeneration(prisma, {
          workspaceId: o.workspaceId,
          campaignId: campaign.id,
          actor,
        });
        expect(await drainJobs(prisma, { workspaceId: o.workspaceId })).toEqual(["succeeded"]);
        expect(
          (await draftsJobStatus(prisma, { workspaceId: o.workspaceId, jobId: job.id })).view.progress,
        ).toMatchObject({ done: 60, total: 60 });
      } finally {
        for (const k of Object.keys(env)) delete process.env[k];
      }
      return prisma.draft.findMany({
        where: { campaignId: campaign.id },
        orderBy: { contactId: "asc" },
        select: { contactId: true, sid: true, responseCode: true, blocks: true, pdf: true },
      });
    };
    // Threads from the first draft (60 drafts, three batches), then again on the calling thread: the codes are kept, so the PDFs must be the same bytes.
    const onThreads = draftsRenderedOnThreads();
    const threaded = await generate({ DRAFT_RENDER_THREADS: "2", DRAFT_RENDER_THREADS_FROM: "1" });
    expect(draftsRenderedOnThreads() - onThreads).toBe(60);
    const plain = await generate({ DRAFT_RENDER_THREADS: "0" });
    expect(draftsRenderedOnThreads() - onThreads).toBe(60);
    expect(threaded).toHaveLength(60);
    expect(threaded.map((d) => [d.contactId, d.sid, d.responseCode, d.blocks])).toEqual(
      plain.map((d) => [d.contactId, d.sid, d.responseCode, d.blocks]),
    );
    threaded.forEach((d, i) => expect(Buffer.compare(Buffer.from(d.pdf), Buffer.from(plain[i].pdf))).toBe(0));
  }, 180_000);

  it("keeps a recipient's own copy beside the template, through a new generation, and counts it for the go-live card", async () => {
    const f = await draftCampaign("audit");
    await requestDraftGeneration(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, actor });
    await drainJobs(prisma, { workspaceId: f.workspaceId });
    const target = (
      await listDrafts(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, take: 10 })
    ).drafts.find((d) => d.contactId === f.contacts[0].id)!;
    const before = await getDraft(prisma, { workspaceId: f.workspaceId, draftId: target.id });
    const edited = await updateDraftBlocks(prisma, {
      workspaceId: f.workspaceId,
      draftId: target.id,
      actor,
      blocks: { headline: "Łukasz, this one is just for you", body: "We saved you a seat, {{firstName}}." },
    });
    expect(edited).toMatchObject({
      edited: true,
      overrides: { headline: "Łukasz, this one is just for you", body: "We saved you a seat, {{firstName}}." },
      blocks: { headline: "Łukasz, this one is just for you", body: "We saved you a seat, Łukasz.", signOff: "Sam" },
      responseLink: before.responseLink,
      specimen: true,
    });
    if (hasPoppler) {
      const pdf = Buffer.from((await prisma.draft.findUniqueOrThrow({ where: { id: target.id } })).pdf);
      const text = pdfText(pdf, { raw: true }).replace(/\s+/g, " ");
      expect(text).toContain("Łukasz, this one is just for you");
      expect(text).toContain("Specimen — not mailed");
    }
    await requestDraftGeneration(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, actor });
    await drainJobs(prisma, { workspaceId: f.workspaceId });
    expect((await getDraft(prisma, { workspaceId: f.workspaceId, draftId: target.id })).blocks.headline).toBe(
      "Łukasz, this one is just for you",
    );
    expect(await draftSummary(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id })).toMatchObject({
      total: 6,
      edited: 1,
      audience: 6,
      outOfDate: 0,
      job: { status: "succeeded" },
    });
    expect(await editedSample(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id })).toEqual([
      {
        draftId: target.id,
        recipient: "Łukasz Wiśniewski",
        headline: "Łukasz, this one is just for you",
        editedBlocks: ["headline", "body"],
      },
    ]);
    // An empty block returns it to the template; no blocks left means not edited.
    const back = await updateDraftBlocks(prisma, {
      workspaceId: f.workspaceId,
      draftId: target.id,
      actor,
      blocks: { headline: "", body: "" },
    });
    expect([back.edited, back.overrides, back.blocks.headline]).toEqual([
      false,
      null,
      "Łukasz, Łukasz and Account 0: hello",
    ]);
    // Bad copy is refused before anything is written.
    const { ZDraftBlocks } = await import("./schema");
    expect(ZDraftBlocks.safeParse({ body: "Hi {{nickname}}" }).error?.issues[0].message).toMatch(
      /^The message uses unknown merge fields: \{\{nickname\}\}/,
    );
    expect(ZDraftBlocks.safeParse({}).error?.issues[0].message).toBe("Give at least one of headline, body or signOff.");
  }, 120_000);

  it("refuses drafts for a live campaign and for a campaign without an audience", async () => {
    const f = await draftCampaign();
    await prisma.campaign.update({ where: { id: f.campaign.id }, data: { status: "live" } });
    await expect(
      requestDraftGeneration(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, actor }),
    ).rejects.toMatchObject({ code: "invalid_state", message: expect.stringContaining("is live") });
    const empty = await prisma.campaign.create({
      data: { workspaceId: f.workspaceId, name: "No audience", format: "letter" },
    });
    await expect(
      requestDraftGeneration(prisma, { workspaceId: f.workspaceId, campaignId: empty.id, actor }),
    ).rejects.toMatchObject({
      message: "The campaign has no audience yet: set audienceId (campaigns_update_draft), then generate drafts.",
    });
    expect(await prisma.job.count({ where: { workspaceId: f.workspaceId } })).toBe(0);
  }, 120_000);

  it("the lifecycle prints the recipient's approved draft, and renders a draft for a recipient who enters later", async () => {
    const f = await liveCampaign(prisma, { accounts: 2, perAccount: 1 });
    // A draft made before go-live for the first contact, with their own copy.
    await prisma.campaign.update({ where: { id: f.campaign.id }, data: { status: "draft" } });
    await requestDraftGeneration(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, actor });
    await drainJobs(prisma, { workspaceId: f.workspaceId });
    const first = await prisma.draft.findUniqueOrThrow({
      where: { campaignId_contactId: { campaignId: f.campaign.id, contactId: f.contacts[0].id } },
    });
    await updateDraftBlocks(prisma, {
      workspaceId: f.workspaceId,
      draftId: first.id,
      actor,
      blocks: { headline: "Only for you" },
    });
    await prisma.campaign.update({ where: { id: f.campaign.id }, data: { status: "live" } });
    const approved = await prisma.draft.findUniqueOrThrow({ where: { id: first.id } });
    // The second contact's draft is removed, as if they joined the audience after the drafts were made.
    await prisma.draft.deleteMany({ where: { campaignId: f.campaign.id, contactId: f.contacts[1].id } });

    const clock = testClock();
    const a = await postEvent(prisma, f, f.contacts[0].id, clock.now());
    const b = await postEvent(prisma, f, f.contacts[1].id, clock.now());
    await drain(prisma, clock, f.workspaceId);
    const pa = (await eventRow(prisma, a.eventId)).enrollment!.mailPiece!;
    expect([pa.status, pa.sid, pa.responseCode]).toEqual(["mailed", approved.sid, approved.responseCode]);
    expect(Buffer.from((await loadPiecePdf(prisma, pa.id))!).equals(Buffer.from(approved.pdf))).toBe(true);
    expect(pa.copy).toMatchObject({ headline: "Only for you" });
    const pb = (await eventRow(prisma, b.eventId)).enrollment!.mailPiece!;
    const later = await prisma.draft.findUniqueOrThrow({
      where: { campaignId_contactId: { campaignId: f.campaign.id, contactId: f.contacts[1].id } },
    });
    expect([pb.status, pb.sid, later.specimen]).toEqual(["mailed", later.sid, false]);
  }, 120_000);

  it("a gift never goes to a PO box: the event is skipped at address review, and the draft says why", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1, campaign: { format: "gift" } });
    await prisma.contact.update({
      where: { id: f.contacts[0].id },
      data: { addressLine1: "PO Box 4471", addressLine2: null },
    });
    const clock = testClock();
    const e = await postEvent(prisma, f, f.contacts[0].id, clock.now());
    await drain(prisma, clock, f.workspaceId);
    expect(await eventRow(prisma, e.eventId)).toMatchObject({ status: "skipped", skipReason: "address_invalid" });
    await prisma.campaign.update({ where: { id: f.campaign.id }, data: { status: "draft" } });
    await requestDraftGeneration(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, actor });
    await drainJobs(prisma, { workspaceId: f.workspaceId });
    const [draft] = (
      await listDrafts(prisma, {
        workspaceId: f.workspaceId,
        campaignId: f.campaign.id,
        filter: "missing_data",
        take: 5,
      })
    ).drafts;
    expect((await getDraft(prisma, { workspaceId: f.workspaceId, draftId: draft.id })).issues).toContainEqual({
      block: "address",
      kind: "po_box",
      message: "The address is a PO box; gifts ship to a street address only, so this recipient will be skipped.",
    });
  }, 120_000);

  it("the go-live card an agent asks for counts the drafts and shows the rewritten ones", async () => {
    const f = await draftCampaign();
    await prisma.campaign.update({
      where: { id: f.campaign.id },
      data: { destinationUrl: "https://example.com/spring" },
    });
    await requestDraftGeneration(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, actor });
    await drainJobs(prisma, { workspaceId: f.workspaceId });
    const target = (
      await listDrafts(prisma, { workspaceId: f.workspaceId, campaignId: f.campaign.id, take: 10 })
    ).drafts.find((d) => d.contactId === f.contacts[0].id)!;
    await updateDraftBlocks(prisma, {
      workspaceId: f.workspaceId,
      draftId: target.id,
      actor,
      blocks: { headline: "Łukasz, just for you" },
    });
    const { requestGoLive } = await import("@/server/programme/confirmations/requests");
    const { card } = await requestGoLive(prisma, {
      workspaceId: f.workspaceId,
      campaignId: f.campaign.id,
      requestedBy: { kind: "agent", id: "grt_x", label: "Agent" },
    });
    expect(card.summary).toContain(
      " 6 drafts are approved with it, 1 rewritten for their recipient (Łukasz Wiśniewski: “Łukasz, just for you”), 1 with text that does not fit its box, 1 missing merge data.",
    );
  }, 120_000);
});
