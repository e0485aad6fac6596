import type { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { requestGoLive } from "@/server/programme/confirmations/requests";
import { requestDraftGeneration } from "@/server/programme/drafts/service";
import { testDatabase } from "@/test/database";
import { callerFor, createAudience, createOwnerWorkspace } from "@/test/factories";
import { drainJobs } from "@/test/jobs";
import { hasPoppler, pdfText } from "@/test/pdf-tools";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});
const actor = { kind: "user" as const, id: null, label: "owner@example.test" };
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (error: TRPCError) => ({ code: error.code, message: error.message }),
  );
/** pdftotext marks right-to-left lines with bidi embedding controls; the words between them are what a reader copies. */
const readable = (text: string) => text.replace(/[\u200e\u200f\u202a-\u202e]/g, "");

describe("go-live readiness: every recipient's piece prints", () => {
  it("prints names in Arabic, Hebrew, Korean, Thai and Japanese; a name no font covers blocks going live, named with its characters", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "paid" });
    const caller = await callerFor(prisma, o.user);
    const { audience, contacts } = await createAudience(prisma, o.workspaceId, { accounts: 1, perAccount: 6 });
    // Each at an address of their own country (a Boston street in Korea could not be mailed, and the drafts item would say so).
    const at = (addressLine1: string, city: string, region: string | null, postalCode: string) => ({
      addressLine1,
      addressLine2: null,
      city,
      region,
      postalCode,
    });
    const names = [
      { firstName: "محمد", lastName: "الشهري", country: "SA", ...at("King Fahd Rd 1", "Riyadh", null, "12211") },
      { firstName: "דוד", lastName: "כהן", country: "IL", ...at("Rothschild Blvd 1", "Tel Aviv", null, "6688101") },
      { firstName: "민준", lastName: "김", country: "KR", ...at("110 Sejong-daero", "Jung-gu", "Seoul", "04524") },
      { firstName: "สมชาย", lastName: "ใจดี", country: "TH", ...at("999 Rama I Rd", "Pathum Wan", "Bangkok", "10330") },
      { firstName: "直樹", lastName: "山田", country: "JP", ...at("1-1 Chiyoda", "Chiyoda-ku", "Tokyo", "100-8111") },
      { firstName: "ⵜⴰⵎⴰⵣⵉⵖⵜ", lastName: "Amazigh", country: "MA", ...at("Avenue Mohammed V", "Rabat", null, "10000") },
    ];
    for (const [i, n] of names.entries()) await prisma.contact.update({ where: { id: contacts[i].id }, data: n });
    const campaign = await prisma.campaign.create({
      data: {
        workspaceId: o.workspaceId,
        name: "World",
        format: "postcard",
        audienceId: audience.id,
        entryPolicy: "audience_at_go_live",
        destinationUrl: "https://example.com/world",
        headline: "A quick idea for {{company}}",
        bodyTemplate: "Hello {{firstName}}.",
        signOff: "Sam",
      },
    });
    const p = { workspaceId: o.workspaceId, campaignId: campaign.id };
    await requestDraftGeneration(prisma, { ...p, actor });
    expect(await drainJobs(prisma, { workspaceId: o.workspaceId })).toEqual(["succeeded"]);

    const drafts = await prisma.draft.findMany({ where: { campaignId: campaign.id }, include: { contact: true } });
    expect(drafts).toHaveLength(6);
    for (const d of drafts) {
      const missing = (d.issues as { kind: string }[]).filter((i) => i.kind === "missing_glyphs");
      if (d.contact.firstName === "ⵜⴰⵎⴰⵣⵉⵖⵜ") {
        expect(missing).toEqual([
          {
            block: "body",
            kind: "missing_glyphs",
            message: "No bundled font can draw ⵜ ⴰ ⵎ ⵣ ⵉ ⵖ in the message.",
            chars: ["ⵜ", "ⴰ", "ⵎ", "ⵣ", "ⵉ", "ⵖ"],
          },
          {
            block: "address",
            kind: "missing_glyphs",
            message: "No bundled font can draw ⵜ ⴰ ⵎ ⵣ ⵉ ⵖ in the address block.",
            chars: ["ⵜ", "ⴰ", "ⵎ", "ⵣ", "ⵉ", "ⵖ"],
          },
        ]);
      } else {
        expect(missing, d.contact.firstName).toEqual([]);
        if (hasPoppler) {
          const text = readable(pdfText(Buffer.from(d.pdf)));
          expect(text).toContain(d.contact.firstName);
          expect(text).toContain(d.contact.lastName);
        }
      }
    }

    const item = (await caller.campaign.readiness(p)).items.find((i) => i.key === "drafts");
    expect(item).toEqual({
      key: "drafts",
      label: "Drafts up to date, each fitting and with its merge data",
      ok: false,
      detail:
        "1 recipient's piece has characters no bundled font can print, which would print as empty boxes: ⵜⴰⵎⴰⵣⵉⵖⵜ Amazigh (ⵜ ⴰ ⵎ ⵣ ⵉ ⵖ). Correct those names or addresses (or take the recipients out of the audience) and generate the drafts again.",
      fix: `/campaigns/${campaign.id}#drafts`,
    });
    // The owner's go-live refuses with the same sentence, and nothing goes live.
    const refused = await refusal(caller.campaign.goLive(p));
    expect(refused?.message).toContain(
      "Drafts up to date, each fitting and with its merge data: 1 recipient's piece has characters no bundled font can print, which would print as empty boxes: ⵜⴰⵎⴰⵣⵉⵖⵜ Amazigh (ⵜ ⴰ ⵎ ⵣ ⵉ ⵖ).",
    );
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("draft");
    expect(await prisma.holdoutAssignment.count({ where: { campaignId: campaign.id } })).toBe(0);

    // An agent's go-live card tells the person deciding it the same.
    const { card } = await requestGoLive(prisma, { ...p, requestedBy: { kind: "agent", id: "grt_x", label: "Agent" } });
    expect(card.summary).toContain(
      "1 recipient's piece has characters no bundled font can print, which would print as empty boxes: ⵜⴰⵎⴰⵣⵉⵖⵜ Amazigh (ⵜ ⴰ ⵎ ⵣ ⵉ ⵖ).",
    );

    // The name written in a script that prints, drafts generated again: the item no longer blocks.
    await prisma.contact.update({ where: { id: contacts[5].id }, data: { firstName: "Tamazight" } });
    await requestDraftGeneration(prisma, { ...p, actor });
    await drainJobs(prisma, { workspaceId: o.workspaceId });
    expect((await caller.campaign.readiness(p)).items.find((i) => i.key === "drafts")).toMatchObject({
      ok: true,
      detail: "6 drafts ready.",
    });
  });
});
