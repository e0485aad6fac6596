import type { Metadata } from "next";
import { RoleGate } from "@/components/access/role";
import { ActivityPanel } from "@/components/settings/activity-panel";

export const metadata: Metadata = { title: "Activity" };

export default async function ActivityPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return (
    <RoleGate action="administer">
      <ActivityPanel workspaceId={workspaceId} />
    </RoleGate>
  );
}
