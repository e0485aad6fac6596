import type { Metadata } from "next";
import { ApiKeysPanel } from "@/components/settings/api-keys-panel";
import { RoleNotice } from "@/components/access/role";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return (
    <>
      <RoleNotice action="administer" />
      <ApiKeysPanel workspaceId={workspaceId} />
    </>
  );
}
