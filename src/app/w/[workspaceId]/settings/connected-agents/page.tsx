import type { Metadata } from "next";
import { ConnectedAgentsPanel } from "@/components/settings/connected-agents-panel";
import { RoleNotice } from "@/components/access/role";

export const metadata: Metadata = { title: "Connected agents" };

export default async function ConnectedAgentsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return (
    <>
      <RoleNotice action="administer" />
      <ConnectedAgentsPanel workspaceId={workspaceId} />
    </>
  );
}
