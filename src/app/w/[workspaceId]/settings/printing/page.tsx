import type { Metadata } from "next";
import { PrintingPanel } from "@/components/settings/printing-panel";

export const metadata: Metadata = { title: "Printing" };

export default async function PrintingPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  return <PrintingPanel workspaceId={(await params).workspaceId} />;
}
