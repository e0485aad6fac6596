import { randomUUID } from "node:crypto";
import type { ConversionKind } from "@/generated/prisma/client";
import { contactKeys } from "@/server/records/contacts/keys";
import type { Db } from "@/server/ground/db";
import { occurrenceKey } from "@/server/programme/conversions/service";
import { fingerprint } from "@/server/ground/platform/fingerprint";

const DAY = 86_400_000;
const ACCOUNTS = 1000;
const NAME = "Q3 pipeline push (demo, ended)";
const first = [
  "Apex",
  "Birch",
  "Cobalt",
  "Delta",
  "Ember",
  "Fathom",
  "Granite",
  "Harbor",
  "Ion",
  "Juniper",
  "Keystone",
  "Lumen",
  "Meridian",
  "Nimbus",
  "Onyx",
  "Pioneer",
  "Quarry",
  "Ridge",
  "Summit",
  "Tandem",
];
const second = [
  "Logistics",
  "Health",
  "Capital",
  "Energy",
  "Software",
  "Foods",
  "Analytics",
  "Retail",
  "Insurance",
  "Robotics",
  "Media",
  "Freight",
  "Dental",
  "Pharma",
  "Partners",
  "Labs",
  "Systems",
  "Works",
  "Group",
  "Bank",
];
const id = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, "")}`;

/** A small deterministic PRNG (mulberry32), so the demo's numbers are the same on every install. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * An ended campaign with a measurable result: 1,000 accounts, 20% held out, pieces mailed to the
 * rest, CRM outcomes for both arms (a real but modest lift), scans and clicks, and a few replies
 * reported through response links (which the results must flag as not measurable).
 */
export async function seedMeasuredCampaign(
  db: Db,
  p: { workspaceId: string; handle: string; contractId: string; unitCostCents: number; seed: number },
) {
  const existing = await db.campaign.findFirst({ where: { workspaceId: p.workspaceId, name: NAME } });
  if (existing) return existing;
  const wentLive = new Date(Date.now() - 150 * DAY);
  const audience = await db.audience.create({
    data: { workspaceId: p.workspaceId, name: "Q3 target accounts (demo)", source: "crm" },
  });
  const campaign = await db.campaign.create({
    data: {
      id: id("cmp"),
      workspaceId: p.workspaceId,
      name: NAME,
      format: "postcard",
      status: "ended",
      audienceId: audience.id,
      acceptsApiEvents: true,
      holdoutShare: 0.2,
      // Covers every piece it mailed: the demo keeps the lifecycle's invariant of no spend above budget.
      budgetCents: 100_000,
      fulfilmentContractId: p.contractId,
      destinationUrl: `https://www.${p.handle}.example/q3`,
      headline: "{{firstName}}, the Q3 playbook for {{company}}",
      bodyTemplate: "Hi {{firstName}}, scan for the playbook teams like {{company}} use to plan Q4.",
      signOff: "The Acme team",
      wentLiveAt: wentLive,
      entryPolicyFrozenAt: wentLive,
      endedAt: new Date(Date.now() - 20 * DAY),
    },
  });
  const accounts = Array.from({ length: ACCOUNTS }, (_, i) => ({
    id: id("acc"),
    workspaceId: p.workspaceId,
    name: `${first[i % 20]} ${second[Math.floor(i / 20) % 20]}`,
    domain: `${first[i % 20]}-${second[Math.floor(i / 20) % 20]}-${i}.example`.toLowerCase(),
    crmId: `q3-${i}`,
    source: "crm" as const,
    sourceDetail: "Demo CRM",
  }));
  await db.account.createMany({ data: accounts });
  const contacts = accounts.map((a, i) => ({
    id: id("ctc"),
    workspaceId: p.workspaceId,
    accountId: a.id,
    firstName: ["Ada", "Ben", "Chloe", "Diego", "Elena", "Farid", "Grace", "Hiro"][i % 8],
    lastName: ["Okafor", "Hartley", "Nakamura", "Alvarez", "Petrova", "Haddad", "Lindqvist", "Tanaka"][(i * 3) % 8],
    title: "VP Operations",
    email: `buyer@${a.domain}`,
    addressLine1: `${100 + i} Commerce St`,
    city: "Austin",
    region: "TX",
    postalCode: "78701",
    country: "US",
    addressStatus: "deliverable" as const,
    source: "crm" as const,
    sourceDetail: "Demo CRM",
  }));
  await db.contact.createMany({ data: contacts.map((c) => ({ ...c, ...contactKeys({ ...c, addressLine2: null }) })) });
  await db.audienceMember.createMany({
    data: contacts.map((c) => ({ audienceId: audience.id, contactId: c.id, workspaceId: p.workspaceId })),
  });
  // Every fifth account held out, and each contact's outcomes drawn from its own stream: the same
  // arms and the same numbers on every install (ids are random, so they cannot drive either).
  const held = new Set(accounts.filter((_, i) => i % 5 === 0).map((a) => a.id));
  await db.holdoutAssignment.createMany({
    data: accounts.map((a) => ({
      campaignId: campaign.id,
      accountId: a.id,
      workspaceId: p.workspaceId,
      arm: held.has(a.id) ? ("holdout" as const) : ("treatment" as const),
      assignedAt: wentLive,
    })),
  });

  const events = [];
  const enrollments = [];
  const pieces = [];
  const outcomes = [];
  const responses = [];
  const rates: Record<"treatment" | "holdout", Partial<Record<ConversionKind, number>>> = {
    treatment: { meeting_booked: 0.16, opportunity_created: 0.1, closed_won: 0.04 },
    holdout: { meeting_booked: 0.08, opportunity_created: 0.055, closed_won: 0.025 },
  };
  for (const [i, c] of contacts.entries()) {
    const rand = prng(p.seed * 100_003 + i);
    const arm = held.has(c.accountId) ? ("holdout" as const) : ("treatment" as const);
    const start = new Date(wentLive.getTime() + (i % 30) * DAY);
    const evt = id("evt");
    const enr = id("enr");
    events.push({
      id: evt,
      workspaceId: p.workspaceId,
      campaignId: campaign.id,
      contactId: c.id,
      source: "api" as const,
      idempotencyKey: `demo-q3-${i}`,
      fingerprint: "demo",
      occurredAt: start,
      status: arm === "treatment" ? ("completed" as const) : ("held_out" as const),
      completedAt: start,
      createdAt: start,
    });
    enrollments.push({
      id: enr,
      workspaceId: p.workspaceId,
      campaignId: campaign.id,
      contactId: c.id,
      accountId: c.accountId,
      entryEventId: evt,
      arm,
      status: arm === "treatment" ? ("mailed" as const) : ("held_out" as const),
      scheduledFor: start,
      createdAt: start,
    });
    if (arm === "treatment") {
      const piece = id("pc");
      const sid = piece.slice(3, 19);
      pieces.push({
        id: piece,
        workspaceId: p.workspaceId,
        campaignId: campaign.id,
        enrollmentId: enr,
        contactId: c.id,
        sid,
        responseCode: piece.slice(19, 29),
        status: "mailed" as const,
        costCents: p.unitCostCents,
        recipient: { name: `${c.firstName} ${c.lastName}` },
        printedAt: start,
        mailedAt: start,
        createdAt: start,
      });
      if (rand() < 0.14)
        responses.push({
          workspaceId: p.workspaceId,
          campaignId: campaign.id,
          pieceId: piece,
          kind: rand() < 0.7 ? ("scan" as const) : ("click" as const),
          occurredAt: new Date(start.getTime() + (2 + rand() * 10) * DAY),
        });
    }
    for (const [kind, rate] of Object.entries(rates[arm]) as [ConversionKind, number][]) {
      if (rand() >= rate) continue;
      const at = new Date(start.getTime() + (3 + rand() * 80) * DAY).toISOString();
      const amount =
        kind === "closed_won"
          ? Math.round(30_000 + rand() * 90_000) * 100
          : kind === "opportunity_created"
            ? Math.round(40_000 + rand() * 160_000) * 100
            : null;
      const externalId = `crm-${kind}-${i}`;
      const rows: { kind: ConversionKind; amount: number | null }[] = [
        { kind, amount: kind === "opportunity_created" ? null : amount },
      ];
      if (kind === "opportunity_created") rows.push({ kind: "pipeline_dollars", amount });
      for (const row of rows) {
        outcomes.push({
          workspaceId: p.workspaceId,
          accountId: c.accountId,
          kind: row.kind,
          amountCents: row.amount === null ? null : BigInt(row.amount),
          at,
          externalId,
          occurrenceKey: occurrenceKey({ externalId }),
          fingerprint: fingerprint({ kind: row.kind, amountCents: row.amount, at, externalId }),
          source: "crm" as const,
        });
      }
    }
  }
  await db.entryEvent.createMany({ data: events });
  await db.enrollment.createMany({ data: enrollments });
  await db.mailPiece.createMany({ data: pieces });
  await db.accountOutcome.createMany({ data: outcomes });
  await db.responseEvent.createMany({ data: responses });
  await db.conversion.createMany({
    data: pieces.slice(0, 6).map((pc) => ({
      workspaceId: p.workspaceId,
      campaignId: campaign.id,
      pieceId: pc.id,
      kind: "reply" as const,
      at: new Date(pc.mailedAt.getTime() + 4 * DAY),
      occurrenceKey: "-",
      fingerprint: "demo",
    })),
  });
  await db.campaign.update({ where: { id: campaign.id }, data: { spentCents: pieces.length * p.unitCostCents } });
  return campaign;
}
