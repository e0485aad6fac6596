import type { Metadata } from "next";
import { AuthFrame } from "@/components/auth/auth-frame";
import { ForgotPasswordForm } from "@/components/auth/forgot-password-form";

export const metadata: Metadata = { title: "Forgot your password" };

export default function ForgotPasswordPage() {
  return (
    <AuthFrame
      title="Forgot your password?"
      subtitle="Enter the address you sign in with. We email it a link to choose a new password, valid for one hour."
    >
      <ForgotPasswordForm />
    </AuthFrame>
  );
}
