import type { Metadata } from "next";
import { SuppressionsPage } from "@/components/suppressions/suppressions-page";

export const metadata: Metadata = { title: "Suppressions" };

export default async function Page({ params }: { params: Promise<{ workspaceId: string }> }) {
  return <SuppressionsPage workspaceId={(await params).workspaceId} />;
}
