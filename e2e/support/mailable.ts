import type { APIRequestContext } from "@playwright/test";

async function trpcGet(request: APIRequestContext, procedure: string, input: unknown) {
  const res = await request.get(`/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`);
  return (await res.json()).result.data.json;
}

/**
 * Members of the demo audience a campaign can mail now, read through a signed-in owner's session:
 * in the US (the demo printers' country), deliverable, not suppressed, and with an account no
 * campaign holds out. Other specs' campaigns draw their holdouts from the same accounts at random
 * (their ids are random), and an account any campaign holds out is held out by every campaign, so
 * a spec picks its contacts here rather than by position. `ids` are tried in the order given.
 */
export async function mailableMembers(request: APIRequestContext, workspaceId: string, ids: string[], count: number) {
  const found: { id: string; name: string }[] = [];
  for (const contactId of ids) {
    const c = await trpcGet(request, "contact.get", { workspaceId, contactId });
    if (c.country !== "US" || c.addressStatus === "undeliverable" || c.suppressions.length > 0 || !c.account) continue;
    const account = (await trpcGet(request, "account.get", { workspaceId, accountId: c.account.id })) as {
      campaigns: { arm: string }[];
    };
    if (account.campaigns.some((campaign) => campaign.arm === "holdout")) continue;
    found.push({ id: contactId, name: `${c.firstName} ${c.lastName}` });
    if (found.length === count) return found;
  }
  throw new Error(`only ${found.length} of the ${count} mailable members needed are in the demo audience`);
}
