import type { Metadata } from "next";
import { ContactDetail } from "@/components/contacts/contact-detail";
import { loadPage } from "@/trpc/server";

export const metadata: Metadata = { title: "Contact" };

export default async function Page({ params }: { params: Promise<{ workspaceId: string; contactId: string }> }) {
  const { workspaceId, contactId } = await params;
  await loadPage((caller) => caller.contact.get({ workspaceId, contactId }));
  return <ContactDetail workspaceId={workspaceId} contactId={contactId} />;
}
