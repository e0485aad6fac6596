import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { ZCampaignDraft } from "@/server/programme/campaigns/schema";
import { testDatabase } from "@/test/database";
import { createAudience, createOwnerWorkspace } from "@/test/factories";
import { fillTemplate, KNOWN_FIELDS_SENTENCE, mergeFieldProblems } from "./merge-fields";
import { ZDesignCreate } from "./schema";
import { createDesign, previewSavedDesign } from "./service";

/** Merge fields named like Object's members once reached the prototype (500 in preview, draft update, the drafts job and go-live). */
const INHERITED_NAMES = [
  "constructor",
  "__proto__",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "__defineGetter__",
  "isPrototypeOf",
];

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});
const actor = { kind: "agent" as const, id: "grt_x", label: "Test agent (agent)" };

describe("merge fields never reach what objects inherit", () => {
  it("refuses {{custom.constructor}}, {{custom.__proto__}}, {{toString}} and the like at validation, listing the known fields", () => {
    for (const name of INHERITED_NAMES) {
      for (const field of [`custom.${name}`, name]) {
        expect(mergeFieldProblems(`Hi {{${field}}}`), field).toEqual([
          `uses unknown merge fields: {{${field}}}. ${KNOWN_FIELDS_SENTENCE}`,
        ]);
      }
    }
    const design = ZDesignCreate.safeParse({
      name: "X",
      format: "postcard",
      layout: "split",
      blocks: { headline: "{{custom.constructor}}" },
    });
    expect(design.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["blocks.headline", `The headline uses unknown merge fields: {{custom.constructor}}. ${KNOWN_FIELDS_SENTENCE}`],
    ]);
    const draft = ZCampaignDraft.partial().safeParse({ headline: "{{custom.__proto__}} {{custom.toString|x}}" });
    expect(draft.success).toBe(false);
    expect(draft.error?.issues[0].message).toContain(
      "uses unknown merge fields: {{custom.__proto__}}, {{custom.toString}}",
    );
  });

  it("fills a stored template that names an inherited member as an empty field, from the contact's own fields only", () => {
    const own = Object.fromEntries([
      ["__proto__", "own value"],
      ["industry", "Logistics"],
    ]) as Record<string, string>;
    for (const name of INHERITED_NAMES) {
      const filled = fillTemplate(`[{{custom.${name}}}][{{${name}|none}}]`, { firstName: "Ada", custom: own });
      expect(filled, name).toEqual({ text: "[][none]", missing: [`custom.${name}`], fallbacks: [name] });
    }
    expect(fillTemplate("{{custom.industry}}", { custom: own }).text).toBe("Logistics");
  });

  it("previews a design saved before the check existed: the field prints empty, no error (both databases)", async () => {
    const o = await createOwnerWorkspace(prisma);
    const { contacts } = await createAudience(prisma, o.workspaceId, { accounts: 1, perAccount: 1 });
    await prisma.contact.update({ where: { id: contacts[0].id }, data: { customFields: { industry: "Logistics" } } });
    const design = await createDesign(prisma, {
      workspaceId: o.workspaceId,
      actor,
      input: ZDesignCreate.parse({ name: "Old", format: "postcard", layout: "split" }),
    });
    // As a design written before this check was there holds it.
    await prisma.design.update({
      where: { id: design.id },
      data: { blocks: { ...design.blocks, headline: "Hello {{custom.constructor}} {{custom.toString|friend}}" } },
    });
    const preview = await previewSavedDesign(prisma, {
      workspaceId: o.workspaceId,
      designId: design.id,
      contactId: contacts[0].id,
      widthPx: 300,
    });
    expect(preview.missingFields).toContain("custom.constructor");
    expect(preview.fallbacks).toContain("custom.toString");
    expect(preview.pages.length).toBeGreaterThan(0);
  }, 120_000);
});
