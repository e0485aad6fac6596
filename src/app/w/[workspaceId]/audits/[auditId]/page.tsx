import type { Metadata } from "next";
import { AuditReport } from "@/components/audits/audit-report";

export const metadata: Metadata = { title: "Mailability audit" };

export default async function Page({ params }: { params: Promise<{ workspaceId: string; auditId: string }> }) {
  const { workspaceId, auditId } = await params;
  return <AuditReport workspaceId={workspaceId} auditId={auditId} />;
}
