import type { Metadata } from "next";
import { TeamPanel } from "@/components/settings/team-panel";

export const metadata: Metadata = { title: "Team" };

export default async function TeamPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return <TeamPanel workspaceId={workspaceId} />;
}
