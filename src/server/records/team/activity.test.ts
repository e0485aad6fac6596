import Papa from "papaparse";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { addTeammate, callerFor, createOwnerWorkspace } from "@/test/factories";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const at = (iso: string) => new Date(iso);

async function trail() {
  const o = await createOwnerWorkspace(prisma);
  const entry = (actorKind: "user" | "agent" | "api_key" | "system", actorId: string | null, label: string) => ({
    workspaceId: o.workspaceId,
    actorKind,
    actorId,
    actorLabel: label,
  });
  await prisma.auditLogEntry.createMany({
    data: [
      {
        ...entry("agent", "grt_1", "Claude (agent)"),
        action: "campaign.go_live.requested",
        targetType: "campaign",
        targetId: "cmp_1",
        createdAt: at("2026-03-02T10:00:00Z"),
      },
      {
        ...entry("user", o.user.id, o.user.email),
        action: "card.go_live.accepted",
        targetType: "confirmation_card",
        targetId: "card_1",
        createdAt: at("2026-03-02T11:00:00Z"),
      },
      {
        ...entry("user", o.user.id, o.user.email),
        action: "api_key.created",
        data: { name: '=HYPERLINK("x")' },
        createdAt: at("2026-03-05T09:00:00Z"),
      },
      {
        ...entry("system", null, "Direct Mail service"),
        action: "campaign.ended",
        createdAt: at("2026-03-09T00:00:00Z"),
      },
    ],
  });
  // Sixty more, a minute apart, for paging.
  await prisma.auditLogEntry.createMany({
    data: Array.from({ length: 60 }, (_, i) => ({
      ...entry("api_key", "key_1", "API key CRM"),
      action: "entry_event.accepted",
      createdAt: new Date(at("2026-02-01T00:00:00Z").getTime() + i * 60_000),
    })),
  });
  return o;
}

describe("Settings → Activity", () => {
  it("filters the trail by who, kind and day, newest first", async () => {
    const o = await trail();
    const api = await callerFor(prisma, o.user);
    const list = (filter: object) => api.activity.list({ workspaceId: o.workspaceId, filter });

    const agents = await list({ actorKind: "agent" });
    expect(agents.entries.map((e) => e.action)).toEqual(["campaign.go_live.requested"]);
    const owner = await list({ actorId: o.user.id });
    expect(owner.entries.map((e) => e.action)).toEqual(["api_key.created", "card.go_live.accepted"]);
    const campaigns = await list({ kind: "campaign" });
    expect(campaigns.entries.map((e) => e.action)).toEqual(["campaign.ended", "campaign.go_live.requested"]);
    const march2 = await list({ from: "2026-03-02T00:00:00Z", to: "2026-03-03T00:00:00Z" });
    expect(march2.entries.map((e) => e.action)).toEqual(["card.go_live.accepted", "campaign.go_live.requested"]);

    const filters = await api.activity.filters({ workspaceId: o.workspaceId });
    expect(filters.kinds).toEqual(["api_key", "campaign", "card", "entry_event"]);
    expect(filters.actors.map((a) => a.label).sort()).toEqual(["API key CRM", "Claude (agent)", o.user.email].sort());
  });

  it("pages 50 at a time, older pages by cursor, with nothing skipped or repeated", async () => {
    const o = await trail();
    const api = await callerFor(prisma, o.user);
    const first = await api.activity.list({ workspaceId: o.workspaceId, filter: {} });
    expect(first.entries).toHaveLength(50);
    expect(first.entries[0].action).toBe("campaign.ended");
    const second = await api.activity.list({ workspaceId: o.workspaceId, filter: {}, cursor: first.nextCursor! });
    expect(second.entries).toHaveLength(14);
    expect(second.nextCursor).toBeNull();
    const ids = [...first.entries, ...second.entries].map((e) => e.id);
    expect(new Set(ids).size).toBe(64);
  });

  it("exports the filtered trail as CSV, one line per entry with its data as JSON", async () => {
    const o = await trail();
    const api = await callerFor(prisma, o.user);
    const out = await api.activity.exportCsv({ workspaceId: o.workspaceId, filter: { actorId: o.user.id } });
    expect(out).toMatchObject({ rows: 2, truncated: false });
    const parsed = Papa.parse<string[]>(out.csv.trim()).data;
    expect(parsed[0]).toEqual([
      "time",
      "actor_kind",
      "actor_id",
      "actor",
      "action",
      "target_type",
      "target_id",
      "data",
    ]);
    expect(parsed[1]).toEqual([
      "2026-03-05T09:00:00.000Z",
      "user",
      o.user.id,
      o.user.email,
      "api_key.created",
      "",
      "",
      '{"name":"=HYPERLINK(\\"x\\")"}',
    ]);
    expect(parsed[2].slice(4, 7)).toEqual(["card.go_live.accepted", "confirmation_card", "card_1"]);
  });

  it("is an admin's: a member or viewer gets 403 naming the role, an admin reads it", async () => {
    const o = await trail();
    for (const role of ["member", "viewer", "approver"] as const) {
      const api = await callerFor(prisma, await addTeammate(prisma, o.workspaceId, role));
      const error = await api.activity.list({ workspaceId: o.workspaceId, filter: {} }).catch((e) => e);
      expect(error.code).toBe("FORBIDDEN");
      expect(error.message).toBe(
        `This needs the admin role or higher (owner, admin); you are ${role === "approver" ? "an approver" : `a ${role}`} in this workspace.`,
      );
      const csv = await api.activity.exportCsv({ workspaceId: o.workspaceId, filter: {} }).catch((e) => e);
      expect(csv.code).toBe("FORBIDDEN");
    }
    const admin = await callerFor(prisma, await addTeammate(prisma, o.workspaceId, "admin"));
    expect((await admin.activity.list({ workspaceId: o.workspaceId, filter: {} })).entries).toHaveLength(50);
  });

  it("refuses a kind that is not an action's first word, with the reason", async () => {
    const o = await createOwnerWorkspace(prisma);
    const api = await callerFor(prisma, o.user);
    const error = await api.activity
      .list({ workspaceId: o.workspaceId, filter: { kind: "campaign.%" } })
      .catch((e) => e);
    expect(error.code).toBe("BAD_REQUEST");
    expect(error.message).toContain("A kind is the first word of an action, e.g. campaign or card.");
  });
});
