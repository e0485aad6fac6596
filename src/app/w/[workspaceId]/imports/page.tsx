import type { Metadata } from "next";
import { ImportsList } from "@/components/imports/imports-list";

export const metadata: Metadata = { title: "Imports" };

export default async function Page({ params }: { params: Promise<{ workspaceId: string }> }) {
  return <ImportsList workspaceId={(await params).workspaceId} />;
}
