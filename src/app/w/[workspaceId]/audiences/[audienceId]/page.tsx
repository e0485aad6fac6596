import type { Metadata } from "next";
import { AudienceDetail } from "@/components/audiences/audience-detail";
import { loadPage } from "@/trpc/server";

export const metadata: Metadata = { title: "Audience" };

export default async function Page({ params }: { params: Promise<{ workspaceId: string; audienceId: string }> }) {
  const { workspaceId, audienceId } = await params;
  await loadPage((caller) => caller.audience.get({ workspaceId, audienceId }));
  return <AudienceDetail workspaceId={workspaceId} audienceId={audienceId} />;
}
