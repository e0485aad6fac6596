import { seedEntryPolicyCampaigns } from "./seed-entry-policies";
import type { Plan, PrismaClient } from "@/generated/prisma/client";
import { startAudit } from "@/server/programme/mailability/service";
import { displayStart, hashApiKey } from "@/server/records/api-keys/secret";
import { hashPassword, verifyPassword } from "@/server/records/auth/password";
import type { Db } from "@/server/ground/db";
import { PAID_PLAN_MONTHLY_CENTS } from "@/server/programme/plans/plans";
import { ConfigError } from "@/server/ground/platform/config";
import { derivedBase62 } from "@/server/ground/platform/random";
import { serviceSecret } from "@/server/ground/platform/service-secrets";
import { acmeAccounts, type DemoAccount, globexAccounts } from "./fixtures";
import { seedCampaigns } from "./seed-campaigns";
import { seedBrandKit, seedCreativeCampaign, seedDesigns } from "./seed-creative";
import { seedDemoImport } from "./seed-imports";
import { type DemoTeam, seedTeam } from "./seed-team";
import { seedHostedPages } from "./seed-hosted";
import { seedPeople } from "./seed-people";
import { seedPieces } from "./seed-pieces";
import { seedMeasuredCampaign } from "./seed-results";

/**
 * The demo: two workspaces, "Acme" (paid) and "Globex" (free audit plan). Safe to run again: it
 * finds everything by natural keys, fills in what is missing and prints the same answer. Secrets
 * (passwords, API keys, sids) are derived from a random per-installation secret, so they are
 * stable across runs but not guessable. It touches only the two demo workspaces and their owners.
 */

interface DemoSpec {
  handle: "acme" | "globex";
  slug: string;
  name: string;
  plan: Plan;
  owner: { email: string; name: string };
  accounts: DemoAccount[];
}

const specs: DemoSpec[] = [
  {
    handle: "acme",
    slug: "acme-demo",
    name: "Acme",
    plan: "paid",
    owner: { email: "owner@acme.example", name: "Alex Reyes" },
    accounts: acmeAccounts,
  },
  {
    handle: "globex",
    slug: "globex-demo",
    name: "Globex",
    plan: "audit",
    owner: { email: "owner@globex.example", name: "Sam Whitmore" },
    accounts: globexAccounts,
  },
];

export interface DemoWorkspace {
  id: string;
  name: string;
  plan: Plan;
  owner: { email: string; password: string };
  /** An admin, an approver, a member and a viewer (same password as the owner), and one pending invitation (paid workspace only). */
  team?: DemoTeam;
  apiKeys: { full: string; entryOnly: string; conversionsOnly: string };
  campaigns: {
    liveApiEntry: string;
    liveNoApiEntry: string;
    draft: string;
    reviewGated: string;
    budgetExhausted: string;
    /** A draft postcard campaign with a design and one generated draft per recipient (one of them edited). */
    creative: string;
    /** An ended campaign with enough accounts and outcomes to show a result (paid workspace only). */
    ended?: string;
    /** A live postcard campaign whose printed link opens a personal landing page with a reply form (paid workspace only). */
    hostedPage?: string;
    /** A live gift campaign whose gifts ship only after their recipient claims them on a claim page (paid workspace only). */
    giftClaim?: string;
    /** A live campaign with entry policy audience_at_go_live: its audience (the launch list) entered when it went live (paid workspace only). */
    liveAudienceAtGoLive?: string;
    /** A live campaign with entry policy audience_joins over the same launch list: a contact added to it enters (paid workspace only). */
    liveAudienceJoins?: string;
  };
  /** The /r/ code of a mailed piece of campaigns.hostedPage: {base_url}/r/{code} is its recipient's landing page. */
  hostedPageCode?: string;
  /** The /r/ code of a gift of campaigns.giftClaim waiting for its recipient's claim: {base_url}/r/{code} is the claim page. */
  giftClaimCode?: string;
  contacts: {
    inAudience: string[];
    notInAudience: string;
    suppressed: string;
    /** In the live API-entry campaign's audience; its account is in that campaign's holdout arm. */
    heldOut: string;
    /** In the audience, with an address marked undeliverable. */
    undeliverable: string;
    /** Mailed by the live API-entry campaign a week ago: inside its 30-day frequency cap. */
    frequencyCapped: string;
  };
  /** The brand kit's designs: a postcard the live campaigns print, an editable postcard, a note and a letter. */
  designs: { followUp: string; launch: string; note: string; letter: string };
  /** A CSV import of trade-show leads (with a refused row and a warning) and the audience it made. */
  imports?: { tradeShow: string; tradeShowAudience: string | null };
  sids: string[];
  /** The response-link codes of the pieces with those sids ({base_url}/r/{code}). */
  responseCodes: string[];
}

export interface DemoSummary {
  workspaces: { acme: DemoWorkspace; globex: DemoWorkspace };
}

export async function seedDemo(prisma: PrismaClient, log: (line: string) => void = () => {}): Promise<DemoSummary> {
  const secret = await serviceSecret(prisma, "demo-seed");
  const out = {} as DemoSummary["workspaces"];
  for (const spec of specs) {
    const password = derivedBase62(secret, `${spec.slug}:owner-password`, 16);
    const passwordHash = await ownerPasswordHash(prisma, spec, password);
    out[spec.handle] = await prisma.$transaction((tx) => seedWorkspace(tx, spec, secret, password, passwordHash), {
      timeout: 60_000,
      maxWait: 60_000,
    });
    const leads = await seedDemoImport(prisma, { workspaceId: out[spec.handle].id, ownerLabel: spec.owner.email });
    out[spec.handle].imports = { tradeShow: leads.importId, tradeShowAudience: leads.audienceId };
    // The mailability audit of the trade-show leads, once (a second seed run finds it).
    const ws = out[spec.handle].id;
    if (spec.plan === "paid") {
      const owner = await prisma.user.findUniqueOrThrow({ where: { email: spec.owner.email } });
      const live = await prisma.campaign.findUniqueOrThrow({ where: { id: out[spec.handle].campaigns.liveApiEntry } });
      const hosted = await seedHostedPages(prisma, {
        workspaceId: ws,
        handle: spec.handle,
        ownerName: spec.owner.name,
        userId: owner.id,
        audienceId: live.audienceId!,
        designId: live.designId!,
        candidates: out[spec.handle].contacts.inAudience,
      });
      const w = out[spec.handle];
      w.campaigns.hostedPage = hosted.hostedPage;
      w.campaigns.giftClaim = hosted.giftClaim;
      w.hostedPageCode = hosted.hostedPageCode;
      w.giftClaimCode = hosted.giftClaimCode;
      // They were mailed (or offered a gift): no longer plain members for other demo paths.
      w.contacts.inAudience = w.contacts.inAudience.filter((id) => !hosted.contacts.includes(id));
      const launch = await seedEntryPolicyCampaigns(prisma, {
        workspaceId: ws,
        handle: spec.handle,
        ownerName: spec.owner.name,
        user: { id: owner.id, email: owner.email },
        contractId: live.fulfilmentContractId!,
        designId: live.designId,
      });
      w.campaigns.liveAudienceAtGoLive = launch.liveAudienceAtGoLive;
      w.campaigns.liveAudienceJoins = launch.liveAudienceJoins;
    }
    if (
      leads.audienceId &&
      !(await prisma.mailabilityAudit.findFirst({
        where: { workspaceId: ws, audienceId: leads.audienceId },
        select: { id: true },
      }))
    ) {
      await startAudit(prisma, {
        workspaceId: ws,
        audienceId: leads.audienceId,
        actor: { kind: "system", id: null, label: "Demo seed" },
      });
    }
    log(`Demo workspace ${spec.name} (${spec.plan}) ready: ${out[spec.handle].id}`);
  }
  return { workspaces: out };
}

async function ownerPasswordHash(prisma: PrismaClient, spec: DemoSpec, password: string): Promise<string> {
  const user = await prisma.user.findUnique({
    where: { email: spec.owner.email },
    include: { memberships: { include: { workspace: { select: { isDemo: true } } } } },
  });
  if (user?.memberships.some((m) => !m.workspace.isDemo)) {
    throw new ConfigError(
      `The demo seed stops: ${spec.owner.email} is a real user's account, and the seed never changes real accounts.`,
    );
  }
  if (user && (await verifyPassword(user.passwordHash, password))) return user.passwordHash;
  return hashPassword(password);
}

async function seedWorkspace(
  db: Db,
  spec: DemoSpec,
  secret: string,
  password: string,
  passwordHash: string,
): Promise<DemoWorkspace> {
  const derive = (label: string, length: number) => derivedBase62(secret, `${spec.slug}:${label}`, length);

  const existing = await db.workspace.findUnique({ where: { slug: spec.slug } });
  if (existing && !existing.isDemo) {
    throw new ConfigError(
      `The demo seed stops: the workspace "${spec.slug}" is not a demo workspace, and the seed never changes real workspaces.`,
    );
  }
  const workspace = await db.workspace.upsert({
    where: { slug: spec.slug },
    create: { slug: spec.slug, name: spec.name, plan: spec.plan, isDemo: true },
    update: { name: spec.name, plan: spec.plan },
  });
  const workspaceId = workspace.id;
  const user = await db.user.upsert({
    where: { email: spec.owner.email },
    create: { email: spec.owner.email, name: spec.owner.name, passwordHash },
    update: { passwordHash },
  });
  await db.membership.upsert({
    where: { workspaceId_userId: { workspaceId, userId: user.id } },
    create: { workspaceId, userId: user.id, role: "owner" },
    update: { role: "owner" },
  });
  const team =
    spec.handle === "acme" ? await seedTeam(db, { workspaceId, ownerId: user.id, passwordHash, derive }) : undefined;
  await seedBrandKit(db, { workspaceId, handle: spec.handle, name: spec.name, ownerName: spec.owner.name });

  const people = await seedPeople(db, workspaceId, spec.accounts);
  if (spec.plan === "paid" && !(await db.billingSubscription.findFirst({ where: { workspaceId, status: "active" } }))) {
    await db.billingSubscription.create({
      data: {
        workspaceId,
        provider: "sandbox",
        providerRef: `sbx_sub_demo_${spec.handle}`,
        plan: "paid",
        monthlyPriceCents: PAID_PLAN_MONTHLY_CENTS,
      },
    });
  }
  const designs = await seedDesigns(db, { workspaceId });
  const campaigns = await seedCampaigns(db, {
    workspaceId,
    handle: spec.handle,
    ownerName: spec.owner.name,
    userId: user.id,
    audienceId: people.audienceId,
    designId: designs.followUp.id,
  });
  const creative = await seedCreativeCampaign(db, {
    workspaceId,
    handle: spec.handle,
    audienceId: people.audienceId,
    designId: designs.launch.id,
    derive,
  });

  // API keys: full access, one made before conversion reporting existed, and conversions only.
  const apiKey = async (label: string, name: string, scopes: ("post_entry_events" | "post_conversions")[]) => {
    const secretKey = `dmk_${derive(`api-key:${label}`, 32)}`;
    await db.apiKey.upsert({
      where: { hash: hashApiKey(secretKey) },
      create: {
        workspaceId,
        name,
        hash: hashApiKey(secretKey),
        start: displayStart(secretKey),
        scopes,
        createdByUserId: user.id,
      },
      update: { revokedAt: null, scopes },
    });
    return secretKey;
  };
  const apiKeys = {
    full: await apiKey("full", "CRM sync (demo)", ["post_entry_events", "post_conversions"]),
    entryOnly: await apiKey("entry-only", "Product sign-ups, legacy (demo)", ["post_entry_events"]),
    conversionsOnly: await apiKey("conversions-only", "Billing conversions (demo)", ["post_conversions"]),
  };

  const pieces = await seedPieces(db, {
    workspaceId,
    plan: spec.plan,
    campaign: campaigns.liveApiEntry,
    candidates: people.inAudience,
    count: 4,
    derive,
  });
  // The contact whose address is undeliverable: its piece came back from the post (the returns the campaign page lists).
  await seedPieces(db, {
    workspaceId,
    plan: spec.plan,
    campaign: campaigns.liveApiEntry,
    candidates: [people.undeliverable],
    count: 1,
    derive,
    daysAgo: 12,
    returned: true,
  });
  const ended =
    spec.plan === "paid"
      ? await seedMeasuredCampaign(db, {
          workspaceId,
          handle: spec.handle,
          contractId: campaigns.liveApiEntry.fulfilmentContractId!,
          unitCostCents: campaigns.postcardUnitCostCents,
          // A fixed seed: the demo shows the same result on every install.
          seed: 20261122,
        })
      : null;
  const heldOut = await db.contact.findFirstOrThrow({
    where: {
      id: { in: people.inAudience },
      // Mailable by the campaign's printer (US only), so the holdout gate is the one that stops it.
      country: "US",
      account: { holdoutAssignments: { some: { campaignId: campaigns.liveApiEntry.id, arm: "holdout" } } },
    },
    orderBy: { crmId: "asc" },
  });

  return {
    id: workspaceId,
    name: workspace.name,
    plan: workspace.plan,
    owner: { email: user.email, password },
    ...(team ? { team } : {}),
    apiKeys,
    campaigns: {
      liveApiEntry: campaigns.liveApiEntry.id,
      liveNoApiEntry: campaigns.liveNoApiEntry.id,
      draft: campaigns.draft.id,
      reviewGated: campaigns.reviewGated.id,
      budgetExhausted: campaigns.budgetExhausted.id,
      creative: creative.id,
      ...(ended ? { ended: ended.id } : {}),
    },
    contacts: {
      // Plain members; the special contacts below are kept apart so that their paths stay predictable.
      inAudience: people.inAudience.filter((id) => id !== heldOut.id && id !== pieces[0].contactId),
      notInAudience: people.outsider,
      suppressed: people.suppressed,
      heldOut: heldOut.id,
      undeliverable: people.undeliverable,
      frequencyCapped: pieces[0].contactId,
    },
    designs: {
      followUp: designs.followUp.id,
      launch: designs.launch.id,
      note: designs.note.id,
      letter: designs.letter.id,
    },
    sids: pieces.map((p) => p.sid),
    responseCodes: pieces.map((p) => p.responseCode),
  };
}
