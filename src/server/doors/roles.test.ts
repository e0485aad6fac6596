import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { PROCEDURE_ACTIONS } from "@/server/ground/access/procedure-actions";
import { ACTION_ROLES, ROLES } from "@/server/ground/access/roles";
import { requestBudget } from "@/server/programme/confirmations/requests";
import { testDatabase } from "@/test/database";
import { addTeammate, callerFor, createAudience, createOwnerWorkspace } from "@/test/factories";
import { agentFor, toolErrorOf, toolResult } from "@/test/mcp";
import { MCP_TOOLS } from "./mcp/catalog";
import { toolAction } from "./mcp/tool-actions";
import { appRouter } from "./routers";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

type ProcedureDef = { _def: { inputs: { shape?: Record<string, unknown> }[] } };

describe("one role check for every workspace-scoped call", () => {
  it("gives every workspace-scoped tRPC procedure an action, and names no procedure that does not exist", () => {
    // tRPC's types give each procedure's definition without its inputs; read them as it holds them.
    const procedures = appRouter._def.procedures as unknown as Record<string, ProcedureDef>;
    const scoped = Object.entries(procedures)
      .filter(([, p]) => p._def.inputs.some((i) => i.shape && "workspaceId" in i.shape))
      .map(([path]) => path)
      .sort();
    expect(scoped.filter((path) => !PROCEDURE_ACTIONS[path])).toEqual([]);
    expect(Object.keys(PROCEDURE_ACTIONS).sort()).toEqual(scoped);
  });

  it("lets each role do what the roles below it may, and the owner alone own", () => {
    for (const [action, roles] of Object.entries(ACTION_ROLES)) {
      const allowed = roles as readonly string[];
      // Allowed roles are a prefix of the ranking: a higher role is never refused what a lower one may do.
      expect(allowed, action).toEqual(ROLES.slice(0, allowed.length));
    }
    expect(ACTION_ROLES.own).toEqual(["owner"]);
    expect(ACTION_ROLES.read).toEqual(ROLES);
  });

  it("lets a viewer read but not write: 403 naming the role it needs, nothing written", async () => {
    const o = await createOwnerWorkspace(prisma);
    const viewer = await addTeammate(prisma, o.workspaceId, "viewer");
    const api = await callerFor(prisma, viewer);
    await expect(api.audience.list({ workspaceId: o.workspaceId })).resolves.toBeDefined();
    const error = await api.audience.create({ workspaceId: o.workspaceId, name: "Mine" }).catch((e) => e);
    expect(error.code).toBe("FORBIDDEN");
    expect(error.message).toBe(
      "This needs the member role or higher (owner, admin, approver, member); you are a viewer in this workspace.",
    );
    expect(await prisma.audience.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
  });

  it("lets a member prepare but not decide cards, manage keys or change the plan", async () => {
    const o = await createOwnerWorkspace(prisma);
    const member = await addTeammate(prisma, o.workspaceId, "member");
    const admin = await addTeammate(prisma, o.workspaceId, "admin");
    const asMember = await callerFor(prisma, member);
    await expect(asMember.audience.create({ workspaceId: o.workspaceId, name: "Prepared" })).resolves.toMatchObject({
      name: "Prepared",
    });
    const decide = await asMember.confirmation
      .decide({ workspaceId: o.workspaceId, cardId: "card_x", decision: "accept" })
      .catch((e) => e);
    expect(decide.message).toBe(
      "This needs the approver role or higher (owner, admin, approver); you are a member in this workspace.",
    );
    const key = await asMember.apiKey
      .create({ workspaceId: o.workspaceId, name: "k", scopes: ["post_entry_events"] })
      .catch((e) => e);
    expect(key.code).toBe("FORBIDDEN");
    expect(await prisma.apiKey.count({ where: { workspaceId: o.workspaceId } })).toBe(0);

    const plan = await (await callerFor(prisma, admin)).plan
      .change({ workspaceId: o.workspaceId, plan: "audit" })
      .catch((e) => e);
    expect(plan.code).toBe("FORBIDDEN");
    expect(plan.message).toBe("Only the workspace owner can do this; you are an admin in this workspace.");
    expect((await prisma.workspace.findUniqueOrThrow({ where: { id: o.workspaceId } })).plan).toBe("paid");
  });

  it("lets an approver accept a card up to their limit, and not one above it", async () => {
    const o = await createOwnerWorkspace(prisma);
    const { audience } = await createAudience(prisma, o.workspaceId, { accounts: 1, perAccount: 1 });
    const campaign = await prisma.campaign.create({
      data: { workspaceId: o.workspaceId, name: "C", format: "postcard", audienceId: audience.id, budgetCents: 10_000 },
    });
    const approver = await addTeammate(prisma, o.workspaceId, "approver", { approvalLimitCents: 20_000 });
    const agent = { kind: "agent" as const, id: "grt_t", label: "Agent (agent)" };
    const big = await requestBudget(prisma, {
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      budgetCents: 50_000,
      requestedBy: agent,
    });
    const api = await callerFor(prisma, approver);
    const refused = await api.confirmation
      .decide({ workspaceId: o.workspaceId, cardId: big.card.id, decision: "accept" })
      .catch((e) => e);
    expect(refused.code).toBe("FORBIDDEN");
    expect(refused.message).toBe(
      "This card is for $400.00, above your approval limit of $200.00; an admin or the owner can accept it.",
    );
    expect((await prisma.confirmationCard.findUniqueOrThrow({ where: { id: big.card.id } })).status).toBe("pending");

    const small = await requestBudget(prisma, {
      workspaceId: o.workspaceId,
      campaignId: campaign.id,
      budgetCents: 15_000,
      requestedBy: agent,
    });
    await expect(
      api.confirmation.decide({ workspaceId: o.workspaceId, cardId: small.card.id, decision: "accept" }),
    ).resolves.toMatchObject({ status: "accepted" });
  });

  it("lets an agent do only what the person who connected it may", async () => {
    expect(MCP_TOOLS.map((t) => [t.name, toolAction(t)]).filter(([, a]) => !a)).toEqual([]);
    const o = await createOwnerWorkspace(prisma);
    const viewerAgent = await agentFor(prisma, o.workspaceId, undefined, false, "viewer");
    expect(toolResult(await viewerAgent.callTool({ name: "workspace_get_summary", arguments: {} }))).toBeDefined();
    const refused = await viewerAgent.callTool({ name: "audiences_create", arguments: { name: "Agent's" } });
    expect(refused.isError).toBe(true);
    expect(toolErrorOf(refused)?.message).toBe(
      "This needs the member role or higher (owner, admin, approver, member); the person who connected this agent is a viewer in this workspace.",
    );
    expect(await prisma.audience.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
    const memberAgent = await agentFor(prisma, o.workspaceId, undefined, false, "member");
    expect(
      toolResult(await memberAgent.callTool({ name: "audiences_create", arguments: { name: "Agent's" } })),
    ).toMatchObject({ name: "Agent's" });
  });
});
