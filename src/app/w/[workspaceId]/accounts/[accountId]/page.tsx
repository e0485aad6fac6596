import type { Metadata } from "next";
import { AccountDetail } from "@/components/accounts/account-detail";
import { loadPage } from "@/trpc/server";

export const metadata: Metadata = { title: "Account" };

export default async function Page({ params }: { params: Promise<{ workspaceId: string; accountId: string }> }) {
  const { workspaceId, accountId } = await params;
  await loadPage((caller) => caller.account.get({ workspaceId, accountId }));
  return <AccountDetail workspaceId={workspaceId} accountId={accountId} />;
}
