import type { Metadata } from "next";
import { DesignEditor } from "@/components/designs/design-editor";
import { loadPage } from "@/trpc/server";

export const metadata: Metadata = { title: "Design" };

export default async function DesignPage({ params }: { params: Promise<{ workspaceId: string; designId: string }> }) {
  const { workspaceId, designId } = await params;
  await loadPage((caller) => caller.design.get({ workspaceId, designId }));
  return <DesignEditor workspaceId={workspaceId} designId={designId} />;
}
