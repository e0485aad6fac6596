import type { Metadata } from "next";
import { PlanPanel } from "@/components/settings/plan-panel";

export const metadata: Metadata = { title: "Plan" };

export default async function PlanPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  return <PlanPanel workspaceId={(await params).workspaceId} />;
}
