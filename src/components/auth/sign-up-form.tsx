"use client";

import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { IconAlertCircle } from "@tabler/icons-react";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { useTRPC } from "@/trpc/react";

type FieldErrors = { pointer: string; detail: string }[] | null | undefined;

/** Sign-up; through an invitation (`invite`), for the invited address, joining that workspace instead of making one. */
export function SignUpForm({ invite }: { invite?: { token: string; email: string } } = {}) {
  const trpc = useTRPC();
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { name: "", email: invite?.email ?? "", password: "", workspaceName: "" },
    validate: {
      name: (v) => (v.trim() ? null : "Enter your name."),
      email: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : "Enter a valid email address, like ada@example.com."),
      password: (v) => (v.length >= 8 ? null : "A password has at least 8 characters."),
      workspaceName: (v) => (invite || v.trim().length >= 2 ? null : "A workspace name has at least 2 characters."),
    },
  });
  const signUp = useMutation(
    trpc.auth.signUp.mutationOptions({
      onError(err) {
        const fieldErrors = (err.data as { fieldErrors?: FieldErrors } | undefined)?.fieldErrors;
        if (fieldErrors?.length) {
          for (const f of fieldErrors) form.setFieldError(f.pointer.replace(/^\//, ""), f.detail);
          setError(null);
        } else {
          setError(err.message);
        }
      },
    }),
  );

  const submit = form.onSubmit(async (values) => {
    setError(null);
    const created = await signUp
      .mutateAsync(
        invite
          ? { name: values.name, email: values.email, password: values.password, inviteToken: invite.token }
          : values,
      )
      .catch(() => null);
    if (!created) return;
    const result = await signIn("credentials", {
      redirect: false,
      email: values.email.trim(),
      password: values.password,
    });
    if (result?.error) {
      setError("Your account was created, but signing in failed. Sign in with your new password.");
      return;
    }
    router.replace(`/w/${created.workspaceId}`);
    router.refresh();
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not create the account" role="alert">
            {error}
          </Alert>
        )}
        <TextInput label="Your name" autoComplete="name" required {...form.getInputProps("name")} />
        <TextInput
          label="Work email"
          type="email"
          autoComplete="email"
          required
          readOnly={Boolean(invite)}
          description={invite ? "The invitation is for this address." : undefined}
          {...form.getInputProps("email")}
        />
        <PasswordInput
          label="Password"
          description="At least 8 characters."
          autoComplete="new-password"
          required
          {...form.getInputProps("password")}
        />
        {!invite && (
          <TextInput
            label="Company or team"
            description="Names your workspace. It starts on the free audit plan."
            autoComplete="organization"
            required
            {...form.getInputProps("workspaceName")}
          />
        )}
        <Button type="submit" loading={signUp.isPending} fullWidth>
          {invite ? "Create account and join" : "Create account"}
        </Button>
        {!invite && (
          <Text size="sm" ta="center">
            Already have an account?{" "}
            <Anchor component={Link} href="/sign-in">
              Sign in
            </Anchor>
          </Text>
        )}
      </Stack>
    </form>
  );
}
