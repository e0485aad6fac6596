import { notFound, redirect } from "next/navigation";
import type { ReactNode } from "react";
import { WorkspaceShell } from "@/components/workspace/workspace-shell";
import { getSessionUser } from "@/server/auth/session";
import { loadPage } from "@/trpc/server";

/** Every page under a workspace: a session is required, and only members see the workspace. */
export default async function WorkspaceLayout({ children, params }: { children: ReactNode; params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const user = await getSessionUser();
  if (!user) redirect(`/sign-in?callbackUrl=${encodeURIComponent(`/w/${workspaceId}`)}`);
  const memberships = await loadPage((caller) => caller.workspace.list());
  const workspaces = memberships.map((m) => ({ id: m.workspace.id, name: m.workspace.name, plan: m.workspace.plan }));
  const workspace = workspaces.find((w) => w.id === workspaceId);
  if (!workspace) notFound();
  return (
    <WorkspaceShell user={{ name: user.name, email: user.email }} workspace={workspace} workspaces={workspaces}>
      {children}
    </WorkspaceShell>
  );
}
