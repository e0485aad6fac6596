import type { Metadata } from "next";
import { AuditsPage } from "@/components/audits/audits-page";

export const metadata: Metadata = { title: "Mailability audit" };

export default async function Page({ params }: { params: Promise<{ workspaceId: string }> }) {
  return <AuditsPage workspaceId={(await params).workspaceId} />;
}
