import type { Metadata } from "next";
import { ContactsPage } from "@/components/contacts/contacts-page";

export const metadata: Metadata = { title: "Contacts" };

export default async function Page({ params }: { params: Promise<{ workspaceId: string }> }) {
  return <ContactsPage workspaceId={(await params).workspaceId} />;
}
