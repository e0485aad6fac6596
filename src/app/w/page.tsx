import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { AuthFrame } from "@/components/auth/auth-frame";
import { CreateFirstWorkspace } from "@/components/workspace/create-first-workspace";
import { getSessionUser } from "@/server/records/auth/session";
import { loadPage } from "@/trpc/server";

/** Opens the workspace used last (or the first one); offers to create one when there is none. */
export default async function WorkspacesPage() {
  const user = await getSessionUser();
  if (!user) redirect("/sign-in?callbackUrl=%2Fw");
  const memberships = await loadPage((caller) => caller.workspace.list());
  const last = (await cookies()).get("dm_ws")?.value;
  const target = memberships.find((m) => m.workspace.id === last) ?? memberships[0];
  if (target) redirect(`/w/${target.workspace.id}`);
  return (
    <AuthFrame title="Create a workspace" subtitle="You do not belong to any workspace yet.">
      <CreateFirstWorkspace />
    </AuthFrame>
  );
}
