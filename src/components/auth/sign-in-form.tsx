"use client";

import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { IconAlertCircle } from "@tabler/icons-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { safeCallback } from "@/server/records/auth/callback-url";

export function SignInForm({ callbackUrl, initialError }: { callbackUrl?: string; initialError?: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(initialError ?? null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({
    initialValues: { email: "", password: "" },
    validate: {
      email: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : "Enter your email address."),
      password: (v) => (v ? null : "Enter your password."),
    },
  });

  const submit = form.onSubmit(async (values) => {
    setSubmitting(true);
    setError(null);
    const result = await signIn("credentials", {
      redirect: false,
      email: values.email.trim(),
      password: values.password,
    });
    if (!result || result.error) {
      setSubmitting(false);
      setError(
        result?.error && result.error !== "CredentialsSignin"
          ? result.error
          : "The email or the password is not right. Check both and try again.",
      );
      return;
    }
    // A fragment (a confirmation card's #card-…) came along with the redirect to this page; keep it.
    const fragment = callbackUrl && window.location.hash.startsWith("#card-") ? window.location.hash : "";
    router.replace(safeCallback(callbackUrl) + fragment);
    router.refresh();
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not sign in" role="alert">
            {error}
          </Alert>
        )}
        <TextInput label="Email" type="email" autoComplete="email" required {...form.getInputProps("email")} />
        <PasswordInput label="Password" autoComplete="current-password" required {...form.getInputProps("password")} />
        <Anchor component={Link} href="/forgot-password" size="sm" ta="right" mt={-8}>
          Forgot password?
        </Anchor>
        <Button type="submit" loading={submitting} fullWidth>
          Sign in
        </Button>
        <Text size="sm" ta="center">
          New here?{" "}
          <Anchor component={Link} href="/sign-up">
            Create an account
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
