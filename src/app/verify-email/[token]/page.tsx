import type { Metadata } from "next";
import { AuthFrame } from "@/components/auth/auth-frame";
import { VerifyEmailForm } from "@/components/auth/verify-email-form";

export const metadata: Metadata = { title: "Verify your email address", referrer: "no-referrer" };

export default async function VerifyEmailPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return (
    <AuthFrame title="Verify your email address" subtitle="Confirm that this address is yours, to invite your team.">
      <VerifyEmailForm token={token} />
    </AuthFrame>
  );
}
