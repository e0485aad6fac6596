import { notFound, redirect } from "next/navigation";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { WorkspaceShell } from "@/components/workspace/workspace-shell";
import { getSessionUser } from "@/server/records/auth/session";
import { REQUEST_PATH_HEADER } from "@/proxy";
import { loadPage } from "@/trpc/server";

/** Every page under a workspace: a session is required, and only members see the workspace. */
export default async function WorkspaceLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ workspaceId: string }>;
}) {
  const { workspaceId } = await params;
  const user = await getSessionUser();
  if (!user) {
    // Back to the page that was asked for (the browser keeps a #card-… fragment across the redirect).
    const asked = (await headers()).get(REQUEST_PATH_HEADER);
    const back = asked?.startsWith(`/w/${workspaceId}`) ? asked : `/w/${workspaceId}`;
    redirect(`/sign-in?callbackUrl=${encodeURIComponent(back)}`);
  }
  const memberships = await loadPage((caller) => caller.workspace.list());
  const workspaces = memberships.map((m) => ({ id: m.workspace.id, name: m.workspace.name, plan: m.workspace.plan }));
  const workspace = workspaces.find((w) => w.id === workspaceId);
  const role = memberships.find((m) => m.workspace.id === workspaceId)?.role;
  if (!workspace || !role) notFound();
  return (
    <WorkspaceShell
      user={{ name: user.name, email: user.email }}
      workspace={workspace}
      workspaces={workspaces}
      role={role}
    >
      {children}
    </WorkspaceShell>
  );
}
