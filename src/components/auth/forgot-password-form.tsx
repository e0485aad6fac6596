"use client";

import { Alert, Anchor, Button, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { IconAlertCircle, IconMailCheck } from "@tabler/icons-react";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/trpc/react";

/** Asks for a reset link; the answer never says whether the address has an account. */
export function ForgotPasswordForm() {
  const trpc = useTRPC();
  const request = useMutation(trpc.auth.requestPasswordReset.mutationOptions());
  const form = useForm({
    initialValues: { email: "" },
    validate: { email: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : "Enter your email address.") },
  });
  if (request.data)
    return (
      <Stack>
        <Alert color="green" icon={<IconMailCheck size={18} />} title="Check your inbox" role="status">
          {request.data.message}
        </Alert>
        <Anchor component={Link} href="/sign-in" size="sm" ta="center">
          Back to sign in
        </Anchor>
      </Stack>
    );
  return (
    <form onSubmit={form.onSubmit((values) => request.mutate({ email: values.email.trim() }))} noValidate>
      <Stack>
        {request.error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not send the link" role="alert">
            {request.error.message}
          </Alert>
        )}
        <TextInput label="Email" type="email" autoComplete="email" required {...form.getInputProps("email")} />
        <Button type="submit" loading={request.isPending} fullWidth>
          Email me a link
        </Button>
        <Text size="sm" ta="center">
          Remembered it?{" "}
          <Anchor component={Link} href="/sign-in">
            Sign in
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
