import type { Metadata } from "next";
import { WebhooksPanel } from "@/components/webhooks/webhooks-panel";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return <WebhooksPanel workspaceId={workspaceId} />;
}
