import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthFrame } from "@/components/auth/auth-frame";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { getSessionUser } from "@/server/records/auth/session";

export const metadata: Metadata = { title: "Create an account" };

export default async function SignUpPage() {
  if (await getSessionUser()) redirect("/w");
  return (
    <AuthFrame
      title="Create an account"
      subtitle="Start on the free audit plan: import your contacts, audit their mailability, and lay out designs and per-recipient drafts. Nothing is mailed until you choose the paid plan."
    >
      <SignUpForm />
    </AuthFrame>
  );
}
