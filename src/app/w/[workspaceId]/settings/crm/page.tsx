import type { Metadata } from "next";
import { CrmPanel } from "@/components/crm/crm-panel";

export const metadata: Metadata = { title: "CRM" };

export default async function CrmSettingsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  return <CrmPanel workspaceId={(await params).workspaceId} />;
}
