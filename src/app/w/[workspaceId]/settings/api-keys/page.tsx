import { Title } from "@mantine/core";
import type { Metadata } from "next";
import { ApiKeysPanel } from "@/components/settings/api-keys-panel";
import { SettingsNav } from "@/components/settings/settings-nav";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return (
    <>
      <Title order={1} size="h2" mb="md">
        Settings
      </Title>
      <SettingsNav workspaceId={workspaceId} />
      <ApiKeysPanel workspaceId={workspaceId} />
    </>
  );
}
