import type { Metadata } from "next";
import { CrmPanel } from "@/components/crm/crm-panel";
import { RoleNotice } from "@/components/access/role";

export const metadata: Metadata = { title: "CRM" };

export default async function CrmSettingsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  return (
    <>
      <RoleNotice action="administer" />
      <CrmPanel workspaceId={(await params).workspaceId} />
    </>
  );
}
