import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { testActor } from "@/test/imports";
import { addSuppressions, refusedEntriesSentence } from "./suppressions-service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

describe("a refused suppression list says what is wrong as a person reads it; its field errors keep their pointers", () => {
  it("one bad entry: the reason and that nothing was added, no internal path", async () => {
    const o = await createOwnerWorkspace(prisma);
    const refused = await addSuppressions(prisma, {
      workspaceId: o.workspaceId,
      entries: [{ email: "not an email", reason: "opt-out" }],
      source: "owner",
      actor: testActor,
    }).catch((e) => e);
    expect(refused).toMatchObject({
      code: "validation_failed",
      message: "“not an email” is not an email address. Nothing was added.",
    });
    expect(refused.message).not.toContain("/entries");
    expect(refused.errors).toEqual([
      { pointer: "/entries/0/email", detail: "“not an email” is not an email address." },
    ]);
    expect(await prisma.suppression.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
  });

  it("several entries: each bad one by its number in the list, counted from 1", async () => {
    const o = await createOwnerWorkspace(prisma);
    const refused = await addSuppressions(prisma, {
      workspaceId: o.workspaceId,
      entries: [
        { email: "ok@x.example", reason: "opt-out" },
        { email: "not an email", reason: "opt-out" },
        { domain: "not a domain", reason: "competitor" },
      ],
      source: "agent",
      actor: testActor,
    }).catch((e) => e);
    expect(refused.message).toBe(
      "Entry 2: “not an email” is not an email address. Entry 3: “not a domain” is not a web domain (like acme.com). Nothing was added; fix these entries and send the list again.",
    );
    expect(refused.errors.map((e: { pointer: string }) => e.pointer)).toEqual([
      "/entries/1/email",
      "/entries/2/domain",
    ]);
    expect(await prisma.suppression.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
  });

  it("a long list names the first five and counts the rest", () => {
    const errors = Array.from({ length: 8 }, (_, i) => ({
      pointer: `/entries/${i * 2}/email`,
      detail: `“bad${i}” is not an email address.`,
    }));
    const sentence = refusedEntriesSentence(errors, 20);
    expect(sentence).toMatch(
      /^Entry 1: “bad0” is not an email address\. Entry 3: .* Entry 9: “bad4” is not an email address\. 3 more entries have problems\. Nothing was added; fix these entries and send the list again\.$/,
    );
    expect(refusedEntriesSentence(errors.slice(0, 6), 20)).toContain("1 more entry has a problem.");
  });
});
