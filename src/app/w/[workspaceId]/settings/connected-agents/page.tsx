import { Title } from "@mantine/core";
import type { Metadata } from "next";
import { ConnectedAgentsPanel } from "@/components/settings/connected-agents-panel";
import { SettingsNav } from "@/components/settings/settings-nav";

export const metadata: Metadata = { title: "Connected agents" };

export default async function ConnectedAgentsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return (
    <>
      <Title order={1} size="h2" mb="md">
        Settings
      </Title>
      <SettingsNav workspaceId={workspaceId} />
      <ConnectedAgentsPanel workspaceId={workspaceId} />
    </>
  );
}
