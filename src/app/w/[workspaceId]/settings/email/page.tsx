import type { Metadata } from "next";
import { OutboxPanel } from "@/components/email/outbox-panel";
import { RoleGate } from "@/components/access/role";

export const metadata: Metadata = { title: "Email" };

export default async function EmailSettingsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return (
    <RoleGate action="administer">
      <OutboxPanel workspaceId={workspaceId} />
    </RoleGate>
  );
}
