import type { Metadata } from "next";
import { DesignEditor } from "@/components/designs/design-editor";
import { RoleGate } from "@/components/access/role";

export const metadata: Metadata = { title: "New design" };

export default async function NewDesignPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return (
    <RoleGate action="prepare">
      <DesignEditor workspaceId={workspaceId} />
    </RoleGate>
  );
}
