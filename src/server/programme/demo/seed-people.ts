import { contactKeys } from "@/server/records/contacts/keys";
import type { Db } from "@/server/ground/db";
import { type DemoAccount, people, suiteFor } from "./fixtures";

/** Accounts, their people, the demo audience and suppressions. Everything is found again by natural keys. */
export async function seedPeople(db: Db, workspaceId: string, accounts: DemoAccount[]) {
  const accountIds: Record<string, string> = {};
  for (const account of accounts) {
    const row = await db.account.upsert({
      where: { workspaceId_domain: { workspaceId, domain: account.domain } },
      create: {
        workspaceId,
        name: account.name,
        domain: account.domain,
        crmId: `demo-${account.key}`,
        source: "crm",
        sourceDetail: "Demo CRM",
      },
      update: {},
    });
    accountIds[account.key] = row.id;
  }
  const members: string[] = [];
  let personIndex = 0;
  for (const [i, account] of accounts.entries()) {
    const perAccount = i % 3 === 0 ? 3 : 2;
    for (let j = 0; j < perAccount; j++)
      members.push(await upsertContact(db, workspaceId, account, accountIds[account.key], personIndex++));
  }
  const outsider = await upsertContact(db, workspaceId, accounts[1], accountIds[accounts[1].key], personIndex++);
  // In the audience, but the post returned a piece: address review skips it.
  const undeliverable = await upsertContact(db, workspaceId, accounts[2], accountIds[accounts[2].key], personIndex++, {
    addressStatus: "undeliverable",
    undeliverableReason: "returned to sender: moved, left no address",
  });

  const audience =
    (await db.audience.findFirst({ where: { workspaceId, name: "Target accounts (demo)" } })) ??
    (await db.audience.create({ data: { workspaceId, name: "Target accounts (demo)", source: "crm" } }));
  await db.audienceMember.createMany({
    data: [...members, undeliverable].map((contactId) => ({ audienceId: audience.id, contactId, workspaceId })),
    skipDuplicates: true,
  });
  const suppressed = members[members.length - 1];
  await db.suppression.createMany({
    data: [
      {
        workspaceId,
        kind: "contact",
        value: suppressed,
        label: "Asked not to receive mail (demo)",
        reason: "opt_out",
        source: "crm",
        createdBy: "Demo CRM",
      },
      {
        workspaceId,
        kind: "domain",
        value: "competitor.example",
        label: "competitor.example",
        reason: "competitor",
        source: "owner",
        createdBy: "Demo",
      },
      {
        workspaceId,
        kind: "email",
        value: "legal@tidewaterbank.com",
        label: "legal@tidewaterbank.com",
        reason: "do_not_mail",
        source: "owner",
        createdBy: "Demo",
      },
    ],
    skipDuplicates: true,
  });
  return { audienceId: audience.id, inAudience: members.slice(0, -1), suppressed, outsider, undeliverable };
}

async function upsertContact(
  db: Db,
  workspaceId: string,
  account: DemoAccount,
  accountId: string,
  index: number,
  extra: { addressStatus?: "undeliverable"; undeliverableReason?: string } = {},
) {
  const person = people[index % people.length];
  const externalId = `${account.key}-${String(index).padStart(2, "0")}`;
  const email = `${`${person.first}.${person.last}`
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z.]/g, "")}@${account.domain}`;
  const fields = {
    firstName: person.first,
    lastName: person.last,
    addressLine1: account.address.line1,
    addressLine2: suiteFor(index),
    city: account.address.city,
    region: account.address.region || null,
    postalCode: account.address.postalCode,
    country: account.address.country,
  };
  const row = await db.contact.upsert({
    where: { workspaceId_crmId: { workspaceId, crmId: externalId } },
    create: {
      workspaceId,
      accountId,
      firstName: person.first,
      lastName: person.last,
      title: person.title,
      email,
      addressLine1: account.address.line1,
      addressLine2: suiteFor(index),
      city: account.address.city,
      region: account.address.region || null,
      postalCode: account.address.postalCode,
      country: account.address.country,
      addressStatus: extra.addressStatus ?? "deliverable",
      undeliverableReason: extra.undeliverableReason,
      ...contactKeys(fields),
      source: "crm",
      sourceDetail: "Demo CRM",
      crmId: externalId,
    },
    update: {},
  });
  return row.id;
}
