import type { Metadata } from "next";
import { WorkspaceOverview } from "@/components/workspace/workspace-overview";
import { loadPage } from "@/trpc/server";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const summary = await loadPage((caller) => caller.workspace.summary({ workspaceId }));
  return <WorkspaceOverview summary={summary} />;
}
