"use client";

import { Alert, Anchor, Button, PasswordInput, Stack } from "@mantine/core";
import { useForm } from "@mantine/form";
import { IconAlertCircle, IconCircleCheck } from "@tabler/icons-react";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/trpc/react";

/** Chooses a new password with the token from a reset link (it works once). */
export function ResetPasswordForm({ token }: { token: string }) {
  const trpc = useTRPC();
  const reset = useMutation(trpc.auth.resetPassword.mutationOptions());
  const form = useForm({
    initialValues: { password: "", repeat: "" },
    validate: {
      password: (v) => (v.length >= 8 ? null : "A password has at least 8 characters."),
      repeat: (v, values) => (v === values.password ? null : "The two passwords differ."),
    },
  });
  if (reset.data)
    return (
      <Stack>
        <Alert color="green" icon={<IconCircleCheck size={18} />} title="Your password is changed" role="status">
          Every other session was signed out. Sign in with your new password.
        </Alert>
        <Button component={Link} href="/sign-in" fullWidth>
          Sign in
        </Button>
      </Stack>
    );
  return (
    <form onSubmit={form.onSubmit((values) => reset.mutate({ token, password: values.password }))} noValidate>
      <Stack>
        {reset.error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not change the password" role="alert">
            {reset.error.message}{" "}
            <Anchor component={Link} href="/forgot-password" size="sm">
              Ask for a new link
            </Anchor>
          </Alert>
        )}
        <PasswordInput
          label="New password"
          description="At least 8 characters."
          autoComplete="new-password"
          required
          {...form.getInputProps("password")}
        />
        <PasswordInput label="Repeat it" autoComplete="new-password" required {...form.getInputProps("repeat")} />
        <Button type="submit" loading={reset.isPending} fullWidth>
          Set the new password
        </Button>
      </Stack>
    </form>
  );
}
