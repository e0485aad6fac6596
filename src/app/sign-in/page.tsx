import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthFrame } from "@/components/auth/auth-frame";
import { SignInForm } from "@/components/auth/sign-in-form";
import { safeCallback } from "@/server/records/auth/callback-url";
import { SIGN_IN_FAILED_MESSAGE } from "@/server/records/auth/options";
import { WRONG_CREDENTIALS_MESSAGE } from "@/server/records/auth/service";
import { getSessionUser } from "@/server/records/auth/session";

export const metadata: Metadata = { title: "Sign in" };

/**
 * The sentence for an `error` in the address: only the service's own sentences are shown as they
 * are (anyone can write a link with any text in it); anything else is the plain wrong-sign-in one.
 */
function shownError(error: string | undefined): string | undefined {
  if (!error || error === "SessionRequired") return undefined;
  if (error === WRONG_CREDENTIALS_MESSAGE || error === SIGN_IN_FAILED_MESSAGE) return error;
  if (
    /^Too many sign-in attempts (for this email )?from your network\. Wait \d{1,4} (second|minute)s? and try again\.$/.test(
      error,
    )
  )
    return error;
  return WRONG_CREDENTIALS_MESSAGE;
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string; error?: string }>;
}) {
  const { callbackUrl, error } = await searchParams;
  if (await getSessionUser()) redirect(safeCallback(callbackUrl));
  return (
    <AuthFrame title="Sign in" subtitle="Sign in to run your workspace's mail programmes.">
      <SignInForm callbackUrl={safeCallback(callbackUrl)} initialError={shownError(error)} />
    </AuthFrame>
  );
}
