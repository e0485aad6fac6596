import type { Metadata } from "next";
import { AuthFrame } from "@/components/auth/auth-frame";
import { ResetPasswordForm } from "@/components/auth/reset-password-form";

export const metadata: Metadata = { title: "Choose a new password", referrer: "no-referrer" };

export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return (
    <AuthFrame
      title="Choose a new password"
      subtitle="The link works once. Choosing a password signs you out everywhere else."
    >
      <ResetPasswordForm token={token} />
    </AuthFrame>
  );
}
