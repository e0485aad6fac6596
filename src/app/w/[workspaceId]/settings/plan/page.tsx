import type { Metadata } from "next";
import { PlanPanel } from "@/components/settings/plan-panel";
import { RoleNotice } from "@/components/access/role";

export const metadata: Metadata = { title: "Plan" };

export default async function PlanPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string }>;
  searchParams: Promise<{ checkout?: string | string[] }>;
}) {
  const checkout = (await searchParams).checkout;
  // Stripe Checkout sends the owner back with ?checkout=success or ?checkout=cancelled.
  return (
    <>
      <RoleNotice action="own" />
      <PlanPanel
        workspaceId={(await params).workspaceId}
        checkout={checkout === "success" || checkout === "cancelled" ? checkout : null}
      />
    </>
  );
}
