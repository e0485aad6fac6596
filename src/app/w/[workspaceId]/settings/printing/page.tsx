import type { Metadata } from "next";
import { PrintingPanel } from "@/components/settings/printing-panel";
import { RoleNotice } from "@/components/access/role";

export const metadata: Metadata = { title: "Printing" };

export default async function PrintingPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  return (
    <>
      <RoleNotice action="administer" />
      <PrintingPanel workspaceId={(await params).workspaceId} />
    </>
  );
}
