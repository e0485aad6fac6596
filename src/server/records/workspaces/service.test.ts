import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { AppError } from "@/server/ground/errors";
import { testDatabase } from "@/test/database";
import { createAudience, createOwnerWorkspace } from "@/test/factories";
import { requireMembership } from "@/server/ground/access/membership";
import { createWorkspaceForUser, getWorkspaceSummary, listWorkspacesOf } from "./service";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

describe("workspace membership", () => {
  it("lists a person's workspaces, and a new one starts on the audit plan with them as owner", async () => {
    const { user, workspace } = await createOwnerWorkspace(prisma);
    const second = await createWorkspaceForUser(prisma, {
      name: "Second team",
      userId: user.id,
      actor: { kind: "user", id: user.id, label: user.email },
    });
    expect(second).toMatchObject({ name: "Second team", plan: "audit" });
    expect(second.slug).toMatch(/^second-team-[0-9a-f]{6}$/);
    const list = await listWorkspacesOf(prisma, user.id);
    expect(list.map((m) => m.workspace.id)).toEqual([workspace.id, second.id]);
    expect(list.every((m) => m.role === "owner")).toBe(true);
  });

  it("treats another person's workspace exactly like a missing one", async () => {
    const a = await createOwnerWorkspace(prisma);
    const b = await createOwnerWorkspace(prisma);
    const foreign = await requireMembership(prisma, { userId: a.user.id, workspaceId: b.workspaceId }).catch((e) => e);
    const missing = await requireMembership(prisma, { userId: a.user.id, workspaceId: "ws_doesnotexist" }).catch(
      (e) => e,
    );
    expect(foreign).toBeInstanceOf(AppError);
    expect(foreign).toMatchObject({ code: "not_found", message: "No such workspace." });
    expect(missing).toMatchObject({ code: foreign.code, message: foreign.message });
  });
});

describe("getWorkspaceSummary", () => {
  it("counts only this workspace's records and says whether mail can go out", async () => {
    const paid = await createOwnerWorkspace(prisma, { plan: "paid" });
    const audit = await createOwnerWorkspace(prisma, { plan: "audit" });
    await createAudience(prisma, paid.workspaceId, { accounts: 3, perAccount: 2 });
    await createAudience(prisma, audit.workspaceId, { accounts: 1, perAccount: 1 });
    await prisma.campaign.create({ data: { workspaceId: paid.workspaceId, name: "Draft", format: "postcard" } });
    await prisma.campaign.create({
      data: { workspaceId: paid.workspaceId, name: "Live", format: "letter", status: "live" },
    });

    const summary = await getWorkspaceSummary(prisma, { workspaceId: paid.workspaceId });
    expect(summary).toMatchObject({
      plan: "paid",
      mailingEnabled: true,
      counts: {
        contacts: 6,
        accounts: 3,
        audiences: 1,
        activeApiKeys: 0,
        piecesMailed: 0,
        piecesSimulated: 0,
        campaigns: { draft: 1, live: 1, paused: 0, ended: 0 },
      },
    });
    const other = await getWorkspaceSummary(prisma, { workspaceId: audit.workspaceId });
    expect(other).toMatchObject({ plan: "audit", mailingEnabled: false, counts: { contacts: 1, accounts: 1 } });
  });

  it("never counts a piece the sandbox or a test key fulfilled as mailed to a person", async () => {
    const w = await createOwnerWorkspace(prisma, { plan: "paid" });
    const campaign = await prisma.campaign.create({
      data: { workspaceId: w.workspaceId, name: "Live", format: "postcard", status: "live" },
    });
    const piece = (n: number, data: { vendor: string; vendorMode: string | null; status?: "mailed" | "printed" }) =>
      prisma.mailPiece.create({
        data: {
          workspaceId: w.workspaceId,
          campaignId: campaign.id,
          sid: `sid${w.workspaceId.slice(-8)}${n}`.slice(0, 16).padEnd(16, "0"),
          responseCode: `rc_${w.workspaceId}_${n}`,
          status: data.status ?? "mailed",
          vendor: data.vendor,
          vendorMode: data.vendorMode,
        },
      });
    await piece(1, { vendor: "sandbox", vendorMode: null });
    await piece(2, { vendor: "lob", vendorMode: "test" });
    await piece(3, { vendor: "lob", vendorMode: "live" });
    await piece(4, { vendor: "lob", vendorMode: "live", status: "printed" });
    const summary = await getWorkspaceSummary(prisma, { workspaceId: w.workspaceId });
    expect(summary.counts).toMatchObject({ piecesMailed: 1, piecesSimulated: 2 });
  });
});
