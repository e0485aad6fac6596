import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthFrame } from "@/components/auth/auth-frame";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { getSessionUser } from "@/server/auth/session";

export const metadata: Metadata = { title: "Create an account" };

export default async function SignUpPage() {
  if (await getSessionUser()) redirect("/w");
  return (
    <AuthFrame
      title="Create an account"
      subtitle="Start on the free audit plan: connect contacts, audit mailability and draft designs. Nothing is mailed until you choose a paid plan."
    >
      <SignUpForm />
    </AuthFrame>
  );
}
