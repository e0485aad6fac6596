import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { liveCampaign, postEvent } from "@/test/lifecycle-fixtures";
import { entryEventExample } from "./example";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

describe("the API key page's ready request", () => {
  it("names a contact of a live API-entry campaign it has not entered, by its ctc_ id; nothing without such a campaign", async () => {
    const empty = await createOwnerWorkspace(prisma);
    expect(await entryEventExample(prisma, { workspaceId: empty.workspaceId })).toBeNull();

    const f = await liveCampaign(prisma, { accounts: 2, perAccount: 1 });
    const [first, second] = [...f.contacts].sort((a, b) => (a.id < b.id ? -1 : 1));
    await postEvent(prisma, f, first.id);
    const example = await entryEventExample(prisma, { workspaceId: f.workspaceId });
    expect(example).toMatchObject({
      url: expect.stringMatching(new RegExp(`^https?://[^/]+/api/v1/campaigns/${f.campaign.id}/events$`)),
      campaign: { id: f.campaign.id, name: f.campaign.name },
      contact: { id: second.id, name: expect.any(String) },
    });
    expect(example!.contact!.id).toMatch(/^ctc_/);
    // Everyone entered: the campaign is named, the request is not offered.
    await postEvent(prisma, f, second.id);
    expect((await entryEventExample(prisma, { workspaceId: f.workspaceId }))!.contact).toBeNull();
    // A campaign that takes no API events is never the example; another workspace's never shows.
    await prisma.campaign.update({ where: { id: f.campaign.id }, data: { acceptsApiEvents: false } });
    expect(await entryEventExample(prisma, { workspaceId: f.workspaceId })).toBeNull();
    expect(await entryEventExample(prisma, { workspaceId: empty.workspaceId })).toBeNull();
  });
});
