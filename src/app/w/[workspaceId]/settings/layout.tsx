import { Title } from "@mantine/core";
import type { ReactNode } from "react";
import { SettingsNav } from "@/components/settings/settings-nav";

/** Every Settings section: the heading and the section tabs above it. */
export default async function SettingsLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ workspaceId: string }>;
}) {
  const { workspaceId } = await params;
  return (
    <>
      <Title order={1} size="h2" mb="md">
        Settings
      </Title>
      <SettingsNav workspaceId={workspaceId} />
      {children}
    </>
  );
}
