import { redirect } from "next/navigation";

/** Settings open on their first tab, Plan. */
export default async function SettingsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  redirect(`/w/${workspaceId}/settings/plan`);
}
