import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { createAudience, createOwnerWorkspace } from "@/test/factories";
import { ZDesignCreate } from "./schema";
import {
  createDesign,
  getDesign,
  listDesigns,
  previewDesign,
  previewSavedDesign,
  toDesignLike,
  updateDesign,
} from "./service";
import { verifyProofLink } from "./proof-links";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});
const actor = { kind: "agent" as const, id: "grt_x", label: "Test agent (agent)" };

describe("designs", () => {
  it("creates a design with suggested copy, lists it a page at a time, and rejects an unknown cursor", async () => {
    const o = await createOwnerWorkspace(prisma);
    const a = await createDesign(prisma, {
      workspaceId: o.workspaceId,
      actor,
      input: ZDesignCreate.parse({
        name: "Spring",
        format: "postcard",
        layout: "split",
        image: "dots",
        blocks: { headline: "{{firstName|Hi}}, spring" },
      }),
    });
    expect(a).toMatchObject({
      id: expect.stringMatching(/^dsn_/),
      size: "6x9",
      layout: "split",
      image: "dots",
      blocks: { headline: "{{firstName|Hi}}, spring", cta: expect.stringContaining("Scan") },
      campaigns: 0,
    });
    const b = await createDesign(prisma, {
      workspaceId: o.workspaceId,
      actor,
      input: ZDesignCreate.parse({ name: "Note", format: "handwritten", layout: "lined" }),
    });
    const page1 = await listDesigns(prisma, { workspaceId: o.workspaceId, take: 1 });
    expect(page1.designs.map((d) => d.id)).toEqual([b.id]);
    const page2 = await listDesigns(prisma, { workspaceId: o.workspaceId, take: 1, cursor: page1.nextCursor });
    expect([page2.designs.map((d) => d.id), page2.nextCursor]).toEqual([[a.id], null]);
    const other = await createOwnerWorkspace(prisma);
    await expect(listDesigns(prisma, { workspaceId: other.workspaceId, take: 1, cursor: a.id })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(getDesign(prisma, { workspaceId: other.workspaceId, designId: a.id })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(
      await prisma.auditLogEntry.count({
        where: { workspaceId: o.workspaceId, action: "design.created", actorKind: "agent" },
      }),
    ).toBe(2);
  }, 120_000);

  it("refuses a layout or size the format does not have, and an unknown merge field naming the known ones", () => {
    const bad = ZDesignCreate.safeParse({
      name: "X",
      format: "letter",
      size: "6x9",
      layout: "bold",
      blocks: { body: "Dear {{first_name}}" },
    });
    expect(bad.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      [
        "blocks.body",
        expect.stringMatching(
          /^The message uses unknown merge fields: \{\{first_name\}\}\. Known fields: firstName, lastName/,
        ),
      ],
      ["size", "A letter comes in us_letter, a4."],
      ["layout", "The letter layouts are classic, modern, memo."],
    ]);
  }, 120_000);

  it("previews a design for two contacts: each sees their own name, and the proof link is signed", async () => {
    const o = await createOwnerWorkspace(prisma, { plan: "audit" });
    const { contacts } = await createAudience(prisma, o.workspaceId, { accounts: 2, perAccount: 1 });
    await prisma.contact.update({ where: { id: contacts[1].id }, data: { firstName: "王芳", lastName: "" } });
    const d = await createDesign(prisma, {
      workspaceId: o.workspaceId,
      actor,
      input: ZDesignCreate.parse({ name: "P", format: "postcard", layout: "minimal" }),
    });
    const first = await previewSavedDesign(prisma, {
      workspaceId: o.workspaceId,
      designId: d.id,
      contactId: contacts[0].id,
    });
    const second = await previewSavedDesign(prisma, {
      workspaceId: o.workspaceId,
      designId: d.id,
      contactId: contacts[1].id,
    });
    expect(first.pages.map((p) => p.label)).toEqual(["Front", "Back"]);
    expect(first.pages[0].png.subarray(1, 4).toString()).toBe("PNG");
    expect(first.pages[0].png.equals(second.pages[0].png)).toBe(false);
    expect([first.recipient.name, second.recipient.name, first.specimen]).toEqual(["First00 Tester", "王芳", true]);
    const url = new URL(first.proofUrl);
    expect(url.pathname).toBe(`/api/designs/${d.id}/proof`);
    const target = { kind: "design" as const, id: d.id, workspaceId: o.workspaceId, contactId: contacts[0].id };
    expect(
      await verifyProofLink(prisma, target, url.searchParams.get("expires"), url.searchParams.get("signature")),
    ).toBe(true);
    expect(
      await verifyProofLink(
        prisma,
        { ...target, contactId: contacts[1].id },
        url.searchParams.get("expires"),
        url.searchParams.get("signature"),
      ),
    ).toBe(false);
    expect(await verifyProofLink(prisma, target, String(Date.now() - 1), url.searchParams.get("signature"))).toBe(
      false,
    );
    await expect(
      previewSavedDesign(prisma, { workspaceId: o.workspaceId, designId: d.id, contactId: "ctc_nope" }),
    ).rejects.toMatchObject({ code: "not_found" });
  }, 120_000);

  it("previews unsaved edits and reports a headline that cannot fit", async () => {
    const o = await createOwnerWorkspace(prisma);
    const d = await createDesign(prisma, {
      workspaceId: o.workspaceId,
      actor,
      input: ZDesignCreate.parse({ name: "P", format: "postcard", size: "4x6", layout: "bold" }),
    });
    const design = await prisma.design.findUniqueOrThrow({ where: { id: d.id } });
    const r = await previewDesign(prisma, {
      workspaceId: o.workspaceId,
      design: { ...toDesignLike(design), blocks: { headline: "Hello ".repeat(60) } },
    });
    expect(r.issues).toContainEqual(expect.objectContaining({ block: "headline", kind: "overflow" }));
    expect(r.specimen).toBe(false);
  }, 120_000);

  it("freezes a design that a live campaign prints", async () => {
    const o = await createOwnerWorkspace(prisma);
    const d = await createDesign(prisma, {
      workspaceId: o.workspaceId,
      actor,
      input: ZDesignCreate.parse({ name: "P", format: "postcard", layout: "bold" }),
    });
    expect(
      (
        await updateDesign(prisma, {
          workspaceId: o.workspaceId,
          designId: d.id,
          actor,
          changes: { layout: "minimal", blocks: { cta: "Scan me" } },
        })
      ).blocks,
    ).toMatchObject({ cta: "Scan me", headline: d.blocks.headline });
    await expect(
      updateDesign(prisma, { workspaceId: o.workspaceId, designId: d.id, actor, changes: { layout: "classic" } }),
    ).rejects.toMatchObject({ code: "validation_failed", message: "The postcard layouts are bold, split, minimal." });
    await prisma.campaign.create({
      data: { workspaceId: o.workspaceId, name: "Live one", format: "postcard", status: "live", designId: d.id },
    });
    await expect(
      updateDesign(prisma, { workspaceId: o.workspaceId, designId: d.id, actor, changes: { name: "New" } }),
    ).rejects.toMatchObject({
      code: "invalid_state",
      message:
        "The live campaign “Live one” prints this design, so it cannot change; create a new design (designs_create) and use it in a draft campaign.",
    });
    expect((await getDesign(prisma, { workspaceId: o.workspaceId, designId: d.id })).name).toBe("P");
  }, 120_000);
});
