import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AuditReport } from "@/components/audits/audit-report";
import { isIdShaped } from "@/server/ground/platform/stored-text";

export const metadata: Metadata = { title: "Mailability audit" };

export default async function Page({ params }: { params: Promise<{ workspaceId: string; auditId: string }> }) {
  const { workspaceId, auditId } = await params;
  // An id that cannot be one names no audit (the report itself loads in the browser).
  if (!isIdShaped(auditId)) notFound();
  return <AuditReport workspaceId={workspaceId} auditId={auditId} />;
}
