import type { Metadata } from "next";
import { DesignsList } from "@/components/designs/designs-list";

export const metadata: Metadata = { title: "Designs" };

export default async function DesignsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return <DesignsList workspaceId={workspaceId} />;
}
