import type { Metadata } from "next";
import { ProgrammeResults } from "@/components/results/programme-results";

export const metadata: Metadata = { title: "Programme results" };

export default async function ProgrammePage({ params }: { params: Promise<{ workspaceId: string }> }) {
  return <ProgrammeResults workspaceId={(await params).workspaceId} />;
}
