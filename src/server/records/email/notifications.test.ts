import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { markNeedsReconnect } from "@/server/programme/crm/service";
import { suspendForRevokedKey } from "@/server/programme/fulfilment/connections";
import { createCard } from "@/server/records/cards/store";
import { testDatabase } from "@/test/database";
import { addTeammate, callerFor, createOwnerWorkspace } from "@/test/factories";
import { drain, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";
import { deliverQueued, mailTo } from "@/test/mail-delivery";
import { startSmtpServer, type TestSmtpServer } from "@/test/smtp-server";

let prisma: PrismaClient;
let smtp: TestSmtpServer;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());

async function team() {
  const o = await createOwnerWorkspace(prisma);
  return {
    ...o,
    admin: await addTeammate(prisma, o.workspaceId, "admin"),
    bigApprover: await addTeammate(prisma, o.workspaceId, "approver", { approvalLimitCents: 100_000 }),
    smallApprover: await addTeammate(prisma, o.workspaceId, "approver", { approvalLimitCents: 5_000 }),
    member: await addTeammate(prisma, o.workspaceId, "member"),
    viewer: await addTeammate(prisma, o.workspaceId, "viewer"),
  };
}

const card = (workspaceId: string, costCents: number) =>
  createCard(prisma, {
    workspaceId,
    kind: "spend",
    title: "Send 120 postcards to the Q3 pipeline",
    summary: "120 postcards to open opportunities over $20k.",
    costCents,
    recipients: 120,
    requestedBy: { kind: "agent", id: "agt_1", label: "Pipeline agent" },
    expiresAt: new Date(Date.now() + 24 * 3600_000),
  });

describe("a card waiting for a decision is emailed to who may accept it", () => {
  it("goes to the owner, admins and approvers within their limit; never to members, viewers or an approver below the cost", async () => {
    const t = await team();
    const created = await card(t.workspaceId, 10_000);
    const queued = await prisma.emailMessage.findMany({ where: { workspaceId: t.workspaceId, kind: "card_waiting" } });
    expect(queued.map((m) => m.to).sort()).toEqual([t.user.email, t.admin.email, t.bigApprover.email].sort());

    await deliverQueued(prisma, smtp, { workspaceId: t.workspaceId, kind: "card_waiting" });
    const [mail] = mailTo(smtp, t.admin.email);
    expect(mail?.parsed.subject).toBe(
      `Waiting for your decision in ${(await prisma.workspace.findUniqueOrThrow({ where: { id: t.workspaceId } })).name}: Send 120 postcards to the Q3 pipeline ($100.00)`,
    );
    const text = mail?.parsed.text ?? "";
    expect(text).toContain("Direct Mail Programme");
    expect(text).toContain("Pipeline agent asks for this");
    expect(text).toMatch(/Cost:\s+\$100\.00/);
    expect(text).toContain(`/w/${t.workspaceId}/confirmations#card-${created.id}`);
    expect(text).toContain(`/w/${t.workspaceId}/settings/notifications`);
  });

  it("a card within the small approver's limit reaches them too; one card is one email per person", async () => {
    const t = await team();
    await card(t.workspaceId, 2_000);
    expect(await prisma.emailMessage.count({ where: { to: t.smallApprover.email } })).toBe(1);
    expect(await prisma.emailMessage.count({ where: { to: { in: [t.member.email, t.viewer.email] } } })).toBe(0);
  });

  it("a person who turned the notification off gets none; turning it on again restores it", async () => {
    const t = await team();
    const admin = await callerFor(prisma, t.admin);
    const settings = await admin.notifications.settings();
    expect(settings.map((s) => [s.kind, s.on])).toEqual([
      ["card_waiting", true],
      ["campaign_budget_stopped", true],
      ["vendor_connection_failed", true],
      ["weekly_summary", true],
    ]);
    await expect(admin.notifications.update({ kind: "card_waiting", on: false })).resolves.toEqual({
      kind: "card_waiting",
      on: false,
    });
    await card(t.workspaceId, 1_000);
    expect(await prisma.emailMessage.count({ where: { to: t.admin.email } })).toBe(0);
    expect(await prisma.emailMessage.count({ where: { to: t.user.email } })).toBe(1);

    await admin.notifications.update({ kind: "card_waiting", on: true });
    await card(t.workspaceId, 1_000);
    expect(await prisma.emailMessage.count({ where: { to: t.admin.email } })).toBe(1);
  });

  it("an unknown kind is refused with 400 and nothing changes", async () => {
    const t = await team();
    const admin = await callerFor(prisma, t.admin);
    // @ts-expect-error a kind that does not exist
    await expect(admin.notifications.update({ kind: "invitation", on: false })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    expect((await prisma.user.findUniqueOrThrow({ where: { id: t.admin.id } })).notificationsOff).toEqual([]);
    const anon = await callerFor(prisma, null);
    await expect(anon.notifications.settings()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("a campaign that stops on its budget", () => {
  it("emails the owner, admins and approvers once per budget, with the campaign's link; not members", async () => {
    const f = await liveCampaign(prisma, { campaign: { budgetCents: 100 } });
    const admin = await addTeammate(prisma, f.workspaceId, "admin");
    const member = await addTeammate(prisma, f.workspaceId, "member");
    await postEvent(prisma, f, f.contacts[0].id);
    await postEvent(prisma, f, f.contacts[1].id);
    await drain(prisma, testClock(), f.workspaceId);
    const queued = await prisma.emailMessage.findMany({
      where: { workspaceId: f.workspaceId, kind: "campaign_budget_stopped" },
    });
    expect(queued.map((m) => m.to).sort()).toEqual([f.user.email, admin.email].sort());
    expect(queued.some((m) => m.to === member.email)).toBe(false);
    await deliverQueued(prisma, smtp, { workspaceId: f.workspaceId, kind: "campaign_budget_stopped" });
    const [mail] = mailTo(smtp, admin.email);
    expect(mail?.parsed.text).toContain(`/w/${f.workspaceId}/campaigns/${f.campaign.id}`);
    expect(mail?.parsed.text).toMatch(/Budget:\s+\$1\.00/);
  });
});

describe("a vendor connection that fails", () => {
  it("a CRM refusing its credentials emails the owner and admins once, linking to Settings → CRM", async () => {
    const t = await team();
    const connection = await prisma.crmConnection.create({
      data: {
        id: `crm_${t.workspaceId}`,
        workspaceId: t.workspaceId,
        kind: "hubspot",
        name: "HubSpot",
        status: "connected",
        connectedByLabel: "Owner",
      },
    });
    for (let i = 0; i < 2; i++)
      await markNeedsReconnect(prisma, {
        workspaceId: t.workspaceId,
        connectionId: connection.id,
        reason: "401 Unauthorized",
      });
    const queued = await prisma.emailMessage.findMany({
      where: { workspaceId: t.workspaceId, kind: "vendor_connection_failed" },
    });
    expect(queued.map((m) => m.to).sort()).toEqual([t.user.email, t.admin.email].sort());
    expect(queued[0]?.text).toContain(`/w/${t.workspaceId}/settings/crm`);
    expect(queued[0]?.text).toContain("401 Unauthorized");
  });

  it("a print vendor refusing the key does the same, linking to Settings → Printing", async () => {
    const t = await team();
    const connection = await prisma.printVendorConnection.create({
      data: {
        workspaceId: t.workspaceId,
        vendor: "lob",
        mode: "test",
        status: "connected",
        keyHint: "…abcd",
        connectedByLabel: "Owner",
      },
    });
    await suspendForRevokedKey(prisma, { connectionId: connection.id, message: "Lob refused the API key." });
    const queued = await prisma.emailMessage.findMany({
      where: { workspaceId: t.workspaceId, kind: "vendor_connection_failed" },
    });
    expect(queued.map((m) => m.to).sort()).toEqual([t.user.email, t.admin.email].sort());
    expect(queued[0]?.subject).toMatch(/^Lob refused /);
    expect(queued[0]?.text).toContain(`/w/${t.workspaceId}/settings/printing`);
  });
});
