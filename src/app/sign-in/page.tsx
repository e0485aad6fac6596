import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthFrame } from "@/components/auth/auth-frame";
import { SignInForm } from "@/components/auth/sign-in-form";
import { getSessionUser } from "@/server/auth/session";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; error?: string }> }) {
  const { callbackUrl, error } = await searchParams;
  if (await getSessionUser()) redirect(callbackUrl?.startsWith("/") && !callbackUrl.startsWith("//") ? callbackUrl : "/w");
  return (
    <AuthFrame title="Sign in" subtitle="Sign in to run your workspace's mail programmes.">
      <SignInForm callbackUrl={callbackUrl} initialError={error && error !== "SessionRequired" ? error : undefined} />
    </AuthFrame>
  );
}
