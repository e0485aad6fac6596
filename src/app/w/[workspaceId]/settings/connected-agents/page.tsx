import type { Metadata } from "next";
import { ConnectedAgentsPanel } from "@/components/settings/connected-agents-panel";

export const metadata: Metadata = { title: "Connected agents" };

export default async function ConnectedAgentsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return <ConnectedAgentsPanel workspaceId={workspaceId} />;
}
