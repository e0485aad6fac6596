import type { Metadata } from "next";
import { ApiKeysPanel } from "@/components/settings/api-keys-panel";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return <ApiKeysPanel workspaceId={workspaceId} />;
}
