import type { Metadata } from "next";
import { AudiencesList } from "@/components/audiences/audiences-list";

export const metadata: Metadata = { title: "Audiences" };

export default async function Page({ params }: { params: Promise<{ workspaceId: string }> }) {
  return <AudiencesList workspaceId={(await params).workspaceId} />;
}
