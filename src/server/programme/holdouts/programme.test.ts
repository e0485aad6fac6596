import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { addTeammate, callerFor } from "@/test/factories";
import { workspaceWithCampaigns } from "@/test/campaigns-over-audience";
import { getProgrammeResults } from "./programme-results";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const workspace = (accounts: number) => workspaceWithCampaigns(prisma, accounts);

const mailedAccounts = async (workspaceId: string) =>
  new Set(
    (
      await prisma.mailPiece.findMany({
        where: { workspaceId, status: { not: "cancelled" } },
        include: { contact: { select: { accountId: true } } },
      })
    ).map((p) => p.contact!.accountId!),
  );

describe("workspace.setProgrammeHoldout", () => {
  it("refuses a share outside 0 to 0.5 with the rule, and writes nothing", async () => {
    const w = await workspace(1);
    for (const share of [0.51, 1, -0.1]) {
      await expect(w.owner.workspace.setProgrammeHoldout({ workspaceId: w.workspaceId, share })).rejects.toThrow(
        share < 0
          ? "share must be from 0 to 0.5 (0 holds out no account)."
          : "share must be from 0 to 0.5: at most half the accounts can be held out.",
      );
    }
    const ws = await prisma.workspace.findUniqueOrThrow({ where: { id: w.workspaceId } });
    expect(ws.programmeHoldoutShare).toBe(0);
    expect(
      await prisma.auditLogEntry.count({
        where: { workspaceId: w.workspaceId, action: { startsWith: "workspace.programme" } },
      }),
    ).toBe(0);
  });

  it("is for the owner and admins; a member is refused and nothing changes", async () => {
    const w = await workspace(1);
    const member = await callerFor(prisma, await addTeammate(prisma, w.workspaceId, "member"));
    await expect(member.workspace.setProgrammeHoldout({ workspaceId: w.workspaceId, share: 0.2 })).rejects.toThrow(
      "This needs the admin role or higher (owner, admin); you are a member in this workspace.",
    );
    expect((await w.owner.workspace.summary({ workspaceId: w.workspaceId })).programmeHoldoutShare).toBe(0);
    const admin = await callerFor(prisma, await addTeammate(prisma, w.workspaceId, "admin"));
    await admin.workspace.setProgrammeHoldout({ workspaceId: w.workspaceId, share: 0.2 });
    expect((await w.owner.workspace.summary({ workspaceId: w.workspaceId })).programmeHoldoutShare).toBe(0.2);
  });
});

describe("the programme holdout", () => {
  it("holds its accounts out of every campaign, keeps each account's draw, and compares all mail with none", async () => {
    const w = await workspace(40);
    await w.owner.workspace.setProgrammeHoldout({ workspaceId: w.workspaceId, share: 0.5 });
    const a = await w.campaign("Campaign A", 0.2);
    const b = await w.campaign("Campaign B");

    const held = await prisma.programmeHoldout.findMany({ where: { workspaceId: w.workspaceId } });
    expect(held).toHaveLength(40);
    const heldOut = new Set(held.filter((h) => h.arm === "holdout").map((h) => h.accountId));
    expect(heldOut.size).toBeGreaterThan(10);
    expect(heldOut.size).toBeLessThan(30);
    // Mailed by no campaign; each campaign recorded them held out by the programme.
    const mailed = await mailedAccounts(w.workspaceId);
    expect(mailed.size).toBeGreaterThan(0);
    expect([...heldOut].filter((x) => mailed.has(x))).toEqual([]);
    for (const c of [a, b]) {
      const byProgramme = await prisma.enrollment.findMany({ where: { campaignId: c.id, heldOutBy: "programme" } });
      expect(new Set(byProgramme.map((e) => e.accountId))).toEqual(heldOut);
      expect(byProgramme.every((e) => e.status === "held_out")).toBe(true);
      const events = await prisma.entryEvent.findMany({
        where: { campaignId: c.id, contact: { accountId: { in: [...heldOut] } } },
      });
      expect(events.every((e) => e.status === "held_out")).toBe(true);
    }
    // A's own holdout is drawn from the accounts the programme leaves to campaigns.
    const aOwn = await prisma.holdoutAssignment.findMany({ where: { campaignId: a.id, arm: "holdout" } });
    expect(aOwn.length).toBeGreaterThan(0);
    expect(aOwn.filter((h) => heldOut.has(h.accountId))).toEqual([]);

    // A lower share later changes no account already drawn: a third campaign mails none of them either.
    await w.owner.workspace.setProgrammeHoldout({ workspaceId: w.workspaceId, share: 0.1 });
    await w.campaign("Campaign C");
    expect([...heldOut].filter((x) => mailed.has(x))).toEqual([]);
    const afterC = await mailedAccounts(w.workspaceId);
    expect([...heldOut].filter((x) => afterC.has(x))).toEqual([]);

    const r = await getProgrammeResults(prisma, { workspaceId: w.workspaceId });
    expect(r.programmeHoldoutShare).toBe(0.1);
    expect(r.arms).toEqual({ treatment: afterC.size, holdout: heldOut.size });
    const spent = await prisma.campaign.aggregate({
      where: { workspaceId: w.workspaceId },
      _sum: { spentCents: true },
    });
    expect(r.spendCents).toBe(spent._sum.spentCents);
    expect(r.spendCents).toBe(
      (await prisma.mailPiece.count({ where: { workspaceId: w.workspaceId, status: "mailed" } })) * 120,
    );
    expect(r.campaigns.map((c) => c.heldOutByProgramme)).toEqual([heldOut.size, heldOut.size, heldOut.size]);
  }, 120_000);

  it("with a share of 0 holds out nobody and draws nothing", async () => {
    const w = await workspace(10);
    await w.campaign("Campaign A");
    expect(await prisma.programmeHoldout.count({ where: { workspaceId: w.workspaceId } })).toBe(0);
    expect((await mailedAccounts(w.workspaceId)).size).toBe(10);
  }, 60_000);
});
