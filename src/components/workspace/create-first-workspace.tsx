"use client";

import { Button, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTRPC } from "@/trpc/react";

export function CreateFirstWorkspace() {
  const trpc = useTRPC();
  const router = useRouter();
  const form = useForm({
    initialValues: { name: "" },
    validate: { name: (v) => (v.trim().length >= 2 ? null : "A workspace name has at least 2 characters.") },
  });
  const create = useMutation(
    trpc.workspace.create.mutationOptions({
      onSuccess: (ws) => router.replace(`/w/${ws.id}`),
      onError: (err) => form.setFieldError("name", err.message),
    }),
  );
  return (
    <form onSubmit={form.onSubmit((v) => create.mutate(v))} noValidate>
      <Stack>
        <TextInput label="Company or team" required {...form.getInputProps("name")} />
        <Button type="submit" loading={create.isPending}>
          Create workspace
        </Button>
      </Stack>
    </form>
  );
}
