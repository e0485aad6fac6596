import type { Metadata } from "next";
import { BrandKitForm } from "@/components/brand/brand-kit-form";

export const metadata: Metadata = { title: "Brand" };

export default async function BrandPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return <BrandKitForm workspaceId={workspaceId} />;
}
