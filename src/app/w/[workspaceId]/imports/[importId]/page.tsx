import type { Metadata } from "next";
import { ImportReport } from "@/components/imports/import-report";
import { loadPage } from "@/trpc/server";

export const metadata: Metadata = { title: "Import" };

export default async function Page({ params }: { params: Promise<{ workspaceId: string; importId: string }> }) {
  const { workspaceId, importId } = await params;
  await loadPage((caller) => caller.contactImport.get({ workspaceId, importId }));
  return <ImportReport workspaceId={workspaceId} importId={importId} />;
}
