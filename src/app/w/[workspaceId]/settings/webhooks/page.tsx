import type { Metadata } from "next";
import { WebhooksPanel } from "@/components/webhooks/webhooks-panel";
import { RoleGate } from "@/components/access/role";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return (
    <RoleGate action="administer">
      <WebhooksPanel workspaceId={workspaceId} />
    </RoleGate>
  );
}
