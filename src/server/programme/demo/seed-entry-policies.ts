import type { PrismaClient } from "@/generated/prisma/client";
import { goLive } from "@/server/programme/campaigns/service";

/**
 * Two live campaigns that mail their audience by themselves, over a small audience of
 * their own so they never touch the other demo campaigns' contacts (frequency caps are per
 * contact across campaigns): one entered its audience when it went live, the other also enters
 * whoever joins the audience later. Both went live through the service's own go-live. Idempotent.
 */
export async function seedEntryPolicyCampaigns(
  prisma: PrismaClient,
  p: {
    workspaceId: string;
    handle: string;
    ownerName: string;
    user: { id: string; email: string };
    contractId: string;
    designId: string | null;
  },
) {
  const { workspaceId, handle } = p;
  const audienceName = "Launch list (demo)";
  const audience =
    (await prisma.audience.findFirst({ where: { workspaceId, name: audienceName } })) ??
    (await prisma.audience.create({ data: { workspaceId, name: audienceName, source: "manual" } }));
  const people = [
    {
      firstName: "Priya",
      lastName: "Nair",
      company: "Northwind Labs",
      domain: "northwind-labs.example",
      line1: "410 Market St",
      city: "San Francisco",
      region: "CA",
      postalCode: "94105",
    },
    {
      firstName: "Marcus",
      lastName: "Lee",
      company: "Bluefin Analytics",
      domain: "bluefin-analytics.example",
      line1: "88 Pearl St",
      city: "Boston",
      region: "MA",
      postalCode: "02110",
    },
    {
      firstName: "Elena",
      lastName: "Rossi",
      company: "Copperline",
      domain: "copperline.example",
      line1: "1200 Main St",
      city: "Dallas",
      region: "TX",
      postalCode: "75202",
    },
    {
      firstName: "Tom",
      lastName: "Baker",
      company: "Harbor & Pine",
      domain: "harborpine.example",
      line1: "55 Water St",
      city: "New York",
      region: "NY",
      postalCode: "10041",
    },
  ];
  for (const x of people) {
    const email = `${x.firstName.toLowerCase()}.${x.lastName.toLowerCase()}@${x.domain}`;
    if (await prisma.contact.findFirst({ where: { workspaceId, email }, select: { id: true } })) continue;
    const account =
      (await prisma.account.findFirst({ where: { workspaceId, domain: x.domain } })) ??
      (await prisma.account.create({ data: { workspaceId, name: x.company, domain: x.domain, source: "owner" } }));
    const contact = await prisma.contact.create({
      data: {
        workspaceId,
        accountId: account.id,
        firstName: x.firstName,
        lastName: x.lastName,
        email,
        addressLine1: x.line1,
        city: x.city,
        region: x.region,
        postalCode: x.postalCode,
        country: "US",
        addressStatus: "deliverable",
        source: "owner",
      },
    });
    await prisma.audienceMember.create({ data: { audienceId: audience.id, contactId: contact.id, workspaceId } });
  }
  const actor = { kind: "user" as const, id: p.user.id, label: p.user.email };
  const make = async (name: string, entryPolicy: "audience_at_go_live" | "audience_joins") => {
    const existing = await prisma.campaign.findFirst({ where: { workspaceId, name } });
    if (existing) return existing.id;
    const draft = await prisma.campaign.create({
      data: {
        workspaceId,
        name,
        format: "postcard",
        audienceId: audience.id,
        entryPolicy,
        acceptsApiEvents: false,
        holdoutShare: 0,
        budgetCents: 10_000,
        fulfilmentContractId: p.contractId,
        designId: p.designId,
        destinationUrl: `https://www.${handle}.example/launch`,
        headline: "{{firstName}}, we launched",
        bodyTemplate:
          "Hi {{firstName}},\n\nThe team at {{company}} asked for early access: it is here. Scan the code to see what is new.",
        signOff: p.ownerName,
      },
    });
    await goLive(prisma, { workspaceId, campaignId: draft.id, actor });
    return draft.id;
  };
  return {
    liveAudienceAtGoLive: await make("Launch announcement, whole list (demo)", "audience_at_go_live"),
    liveAudienceJoins: await make("Launch announcement, and who joins (demo)", "audience_joins"),
    launchAudience: audience.id,
  };
}
