import { spawn } from "node:child_process";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { requestGoLive } from "@/server/programme/confirmations/requests";
import { onPostgres, testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const CONTACTS = 10_000;
const JOINERS = 1_000;

/** Runs the chaos script once; kills it `killAfterMs` after it is ready (never when null). Resolves with whether it finished. */
function runChaos(env: Record<string, string>, killAfterMs: number | null): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "src/test/chaos-go-live.ts"],
      {
        env: { ...process.env, DATABASE_URL: inject("postgresUrl"), ...env },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let done = false;
    child.stdout.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      if (text.includes("done")) done = true;
      if (text.includes("ready") && killAfterMs !== null) setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    });
    child.on("exit", (code, signal) =>
      signal === "SIGKILL" || code === 0 ? resolve(done) : reject(new Error(`chaos script failed (${signal ?? code})`)),
    );
  });
}

/** A paid workspace with a 10,000-contact audience (2,000 accounts) and 1,000 contacts waiting to join it, made in a few statements. */
async function bigDraft() {
  const o = await createOwnerWorkspace(prisma);
  const ws = o.workspaceId;
  const audience = await prisma.audience.create({ data: { workspaceId: ws, name: "Ten thousand" } });
  await prisma.$executeRaw`INSERT INTO "Account" (id, "workspaceId", name, domain, "updatedAt") SELECT 'acc_' || ${ws} || '_' || g, ${ws}, 'Account ' || g, 'a' || g || '.example', now() FROM generate_series(1, ${CONTACTS / 5}) g`;
  await prisma.$executeRaw`
    INSERT INTO "Contact" (id, "workspaceId", "accountId", "firstName", "lastName", email, "addressLine1", city, region, "postalCode", country, "addressStatus", "updatedAt")
    SELECT 'ctc_' || ${ws} || '_' || g, ${ws}, CASE WHEN g > ${CONTACTS} THEN NULL ELSE 'acc_' || ${ws} || '_' || (1 + (g - 1) / 5) END, 'First' || g, CASE WHEN g > ${CONTACTS} THEN 'Joiner' ELSE 'Member' END,
           'p' || g || '@' || ${ws} || '.example', g || ' Main St', 'Springfield', 'IL', '62701', 'US', 'deliverable', now()
      FROM generate_series(1, ${CONTACTS + JOINERS}) g`;
  await prisma.$executeRaw`INSERT INTO "AudienceMember" ("audienceId", "contactId", "workspaceId") SELECT ${audience.id}, id, ${ws} FROM "Contact" WHERE "workspaceId" = ${ws} AND "lastName" = 'Member'`;
  const contract = await prisma.fulfilmentContract.create({
    data: { workspaceId: ws, name: "Sandbox", format: "postcard", unitCostCents: 120, status: "approved" },
  });
  const campaign = await prisma.campaign.create({
    data: {
      workspaceId: ws,
      name: "Everyone, and who joins",
      format: "postcard",
      audienceId: audience.id,
      entryPolicy: "audience_joins",
      holdoutShare: 0.2,
      budgetCents: 2_000_000,
      fulfilmentContractId: contract.id,
      destinationUrl: "https://acme.example/hello",
      headline: "Hello {{firstName}}",
      bodyTemplate: "A note for {{company}}.",
    },
  });
  return { ...o, audience, campaign };
}

// Separate processes share one database only on PostgreSQL (PGlite is single-process).
describe.skipIf(!onPostgres())("crash safety of going live with a 10,000-contact audience", () => {
  it("processes killed while the go-live card enters the audience and while contacts join leave every contact entered exactly once", async () => {
    const f = await bigDraft();
    const { card } = await requestGoLive(prisma, {
      workspaceId: f.workspaceId,
      campaignId: f.campaign.id,
      requestedBy: { kind: "agent", id: "grt_test", label: "Test agent" },
    });
    expect(card.recipients).toBe(CONTACTS * 0.8);
    const goLiveEnv = { CHAOS_WORKSPACE_ID: f.workspaceId, CHAOS_CARD_ID: card.id, CHAOS_USER_ID: f.user.id };
    const joinEnv = { CHAOS_WORKSPACE_ID: f.workspaceId, CHAOS_JOINERS: JSON.stringify({ audienceId: f.audience.id }) };

    // Kill the card's acceptance again and again, with contacts joining (and being killed) beside it.
    let kills = 0;
    for (let round = 0; round < 3; round++) {
      const [accepted] = await Promise.all([
        runChaos(goLiveEnv, 50 + Math.random() * 600),
        runChaos(joinEnv, 50 + Math.random() * 600),
      ]);
      kills++;
      if (accepted) break;
      const status = (await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } })).status;
      // A killed acceptance leaves nothing behind: still a draft, no entries from going live.
      if (status === "draft")
        expect(await prisma.entryEvent.count({ where: { campaignId: f.campaign.id, source: "go_live" } })).toBe(0);
    }
    expect(kills).toBeGreaterThan(0);
    // The restart: whatever is left runs to its end.
    if ((await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } })).status === "draft")
      expect(await runChaos(goLiveEnv, null)).toBe(true);
    expect(await runChaos(joinEnv, null)).toBe(true);

    const campaign = await prisma.campaign.findUniqueOrThrow({ where: { id: f.campaign.id } });
    expect(campaign.status).toBe("live");
    expect(await prisma.confirmationCard.findUniqueOrThrow({ where: { id: card.id } })).toMatchObject({
      status: "accepted",
    });
    const members = await prisma.audienceMember.count({ where: { audienceId: f.audience.id } });
    expect(members).toBe(CONTACTS + JOINERS);
    const perContact = await prisma.$queryRaw<{ contacts: bigint; events: bigint; most: number }[]>`
      SELECT count(DISTINCT "contactId") AS contacts, count(*) AS events, COALESCE(max(n), 0)::int AS most
        FROM (SELECT "contactId", count(*) OVER (PARTITION BY "contactId") AS n FROM "EntryEvent" WHERE "campaignId" = ${f.campaign.id}) x`;
    expect(perContact[0]).toEqual({
      contacts: BigInt(CONTACTS + JOINERS),
      events: BigInt(CONTACTS + JOINERS),
      most: 1,
    });
    // Every member entered; joiners added before the campaign went live entered with it, the rest as they joined.
    const bySource = await prisma.entryEvent.groupBy({
      by: ["source"],
      where: { campaignId: f.campaign.id },
      _count: { _all: true },
    });
    const count = (s: string) => bySource.find((b) => b.source === s)?._count._all ?? 0;
    expect(count("go_live") + count("audience_join")).toBe(CONTACTS + JOINERS);
    expect(count("go_live")).toBeGreaterThanOrEqual(CONTACTS);
    expect(await prisma.holdoutAssignment.count({ where: { campaignId: f.campaign.id } })).toBe(CONTACTS / 5);
    expect(await prisma.holdoutAssignment.count({ where: { campaignId: f.campaign.id, arm: "holdout" } })).toBe(
      CONTACTS / 5 / 5,
    );
  }, 900_000);
});
