import type { Metadata } from "next";
import { AccountsList } from "@/components/accounts/accounts-list";

export const metadata: Metadata = { title: "Accounts" };

export default async function Page({ params }: { params: Promise<{ workspaceId: string }> }) {
  return <AccountsList workspaceId={(await params).workspaceId} />;
}
