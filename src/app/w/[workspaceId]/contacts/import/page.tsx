import type { Metadata } from "next";
import { ImportWizard } from "@/components/imports/import-wizard";

export const metadata: Metadata = { title: "Import contacts" };

export default async function Page({ params }: { params: Promise<{ workspaceId: string }> }) {
  return <ImportWizard workspaceId={(await params).workspaceId} />;
}
