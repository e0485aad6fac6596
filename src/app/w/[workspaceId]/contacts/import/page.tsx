import type { Metadata } from "next";
import { ImportWizard } from "@/components/imports/import-wizard";
import { RoleGate } from "@/components/access/role";

export const metadata: Metadata = { title: "Import contacts" };

export default async function Page({ params }: { params: Promise<{ workspaceId: string }> }) {
  return (
    <RoleGate action="prepare">
      <ImportWizard workspaceId={(await params).workspaceId} />
    </RoleGate>
  );
}
