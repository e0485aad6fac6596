import type { Metadata } from "next";
import { ConfirmationsInbox } from "@/components/confirmations/confirmations-inbox";

export const metadata: Metadata = { title: "Confirmations" };

export default async function ConfirmationsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  return <ConfirmationsInbox workspaceId={(await params).workspaceId} />;
}
