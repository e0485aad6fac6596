import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { type FakeHandwrytten, startFakeHandwrytten } from "@/test/fake-handwrytten";
import { liveCampaign } from "@/test/lifecycle-fixtures";
import { connectVendor, listVendorConnections, openConnection } from "./connections";

let prisma: PrismaClient;
let hw: FakeHandwrytten;
beforeAll(async () => {
  process.env.CRM_ENCRYPTION_KEY ??= Buffer.alloc(32, 7).toString("base64");
  prisma = (await testDatabase()).prisma;
  hw = await startFakeHandwrytten();
  process.env.HANDWRYTTEN_API_URL = hw.url;
});
afterAll(async () => {
  delete process.env.HANDWRYTTEN_API_URL;
  await hw.close();
});

const person = (o: { user: { id: string; email: string } }) => ({
  kind: "user" as const,
  id: o.user.id,
  label: o.user.email,
});

describe("connecting Handwrytten (Settings → Printing)", { timeout: 120_000 }, () => {
  it("checks the key with Handwrytten, reads the account's test mode, keeps its card and font, and shows no webhook URL", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1 });
    const connected = await connectVendor(prisma, {
      workspaceId: f.workspaceId,
      input: { vendor: "handwrytten", apiKey: hw.apiKey },
      actor: person(f),
    });
    expect(connected).toMatchObject({ vendor: "handwrytten", mode: "test", webhookUrl: null });
    // The key went as the whole Authorization header, never as Bearer or Basic.
    expect(hw.requests.at(-1)?.authorization).toBe(hw.apiKey);
    const [listed] = await listVendorConnections(prisma, { workspaceId: f.workspaceId });
    expect(listed).toMatchObject({
      vendor: "handwrytten",
      label: "Handwrytten",
      mode: "test",
      status: "connected",
      keyHint: hw.apiKey.slice(-4),
      webhookUrl: null,
      settings: { cardId: "3404", cardName: "Thank You Kraft", font: "Casual David" },
    });
    const opened = await openConnection(prisma, connected.connectionId);
    expect(opened.apiKey).toBe(hw.apiKey);
    const row = await prisma.printVendorConnection.findUniqueOrThrow({ where: { id: connected.connectionId } });
    expect(row.credentials).not.toContain(hw.apiKey);
  });

  it("a live account connects live", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1 });
    hw.setTestMode(false);
    try {
      const connected = await connectVendor(prisma, {
        workspaceId: f.workspaceId,
        input: { vendor: "handwrytten", apiKey: hw.apiKey },
        actor: person(f),
      });
      expect(connected.mode).toBe("live");
    } finally {
      hw.setTestMode(true);
    }
  });

  it("a wrong or revoked key is refused with a sentence, and nothing is written", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1 });
    const auditsBefore = await prisma.auditLogEntry.count({ where: { workspaceId: f.workspaceId } });
    await expect(
      connectVendor(prisma, {
        workspaceId: f.workspaceId,
        input: { vendor: "handwrytten", apiKey: "not-the-key" },
        actor: person(f),
      }),
    ).rejects.toThrow(
      "Handwrytten refused this API key: it is wrong or has been revoked. Copy an API key from the Integrations page of your Handwrytten dashboard. Nothing was saved.",
    );
    const other = await startFakeHandwrytten();
    process.env.HANDWRYTTEN_API_URL = other.url;
    other.revokeKey();
    try {
      await expect(
        connectVendor(prisma, {
          workspaceId: f.workspaceId,
          input: { vendor: "handwrytten", apiKey: other.apiKey },
          actor: person(f),
        }),
      ).rejects.toThrow("Handwrytten refused this API key");
    } finally {
      process.env.HANDWRYTTEN_API_URL = hw.url;
      await other.close();
    }
    expect(await prisma.printVendorConnection.count({ where: { workspaceId: f.workspaceId } })).toBe(0);
    expect(await prisma.auditLogEntry.count({ where: { workspaceId: f.workspaceId } })).toBe(auditsBefore);
  });

  it("the fake refuses a Bearer header as Handwrytten does", async () => {
    const res = await fetch(`${hw.url}/auth/getUser`, { headers: { authorization: `Bearer ${hw.apiKey}` } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ status: "error", message: "Invalid API key." });
  });
});
