import { PageNotFound } from "@/components/ui/page-states";

/** An unknown campaign, contact or other object of this workspace: a 404 inside the workspace's own frame. */
export default function WorkspaceNotFound() {
  return <PageNotFound />;
}
